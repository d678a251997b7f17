// The parts of undici the transport uses, imported on their own: the package's index also
// loads fetch, WebSocket, caches and more, which no command needs. The npm build loads this
// module from a CommonJS file of its own, with V8's code cache made after a request has run
// (scripts/cached-undici.mjs, src/core/cached-script.ts); tests and the single executable
// import it as it is.
export { default as Agent } from 'undici/lib/dispatcher/agent.js';

/** What an agent through a proxy needs: loaded only when a proxy is set. */
export const loadProxyParts = () => import('./undici-proxy-parts.js');

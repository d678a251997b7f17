// The parts of undici an agent through a proxy needs (see undici-parts.ts).
export { default as connect } from 'undici/lib/api/api-connect.js';
export { default as Dispatcher } from 'undici/lib/dispatcher/dispatcher.js';
export { default as EnvHttpProxyAgent } from 'undici/lib/dispatcher/env-http-proxy-agent.js';

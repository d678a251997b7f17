// An esbuild plugin: two parts of undici that every request would load, loaded only when used.
//
// - HTTP/2: undici's client requires its HTTP/2 half, which requires node:http2, which loads
//   node:tls and node:crypto: about 25 ms of a 45 ms process start on the reference machine,
//   for a protocol only TLS connections can negotiate (ALPN). Here the client gets a function
//   that requires that half when a connection first negotiates HTTP/2
//   (test/e2e/https.e2e.test.ts covers both protocols).
// - node:assert (about 10 ms to load): undici calls `assert(condition)` as an internal check.
//   Here it is a function that loads node:assert only when a condition fails, to throw its
//   AssertionError; any other member (assert.strictEqual, ...) loads it on first use.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

const CLIENT = /[\\/]undici[\\/]lib[\\/]dispatcher[\\/]client\.js$/;
const UNDICI = /[\\/]node_modules[\\/]undici[\\/]/;

export const lazyUndici = {
  name: 'lazy-undici',
  setup(build) {
    build.onResolve({ filter: /^\.\/client-h2\.js$/ }, ({ importer, kind }) => {
      if (kind !== 'require-call' || !CLIENT.test(importer)) return undefined;
      const path = join(dirname(importer), 'client-h2.js');
      if (!existsSync(path)) throw new Error(`lazy-undici: ${path} is missing`);
      return { path, namespace: 'lazy-undici-h2' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-undici-h2' }, ({ path }) => ({
      contents: `module.exports = function connectH2(...args) {
  return require(${JSON.stringify(path)})(...args);
};`,
      loader: 'js',
      resolveDir: dirname(path),
    }));
    build.onResolve({ filter: /^(node:)?assert$/ }, ({ importer, kind }) => {
      if (kind !== 'require-call' || !UNDICI.test(importer)) return undefined;
      return { path: 'node:assert', namespace: 'lazy-undici-assert' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-undici-assert' }, () => ({
      contents: `let loaded;
const load = () => (loaded ??= process.getBuiltinModule('node:assert'));
function assert(value, message) {
  if (!value) load()(value, message);
}
module.exports = new Proxy(assert, {
  get: (target, key) => (key in target ? target[key] : load()[key]),
});`,
      loader: 'js',
    }));
  },
};

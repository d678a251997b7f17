// What decision 1 (undici for every scheme) costs by itself: one GET through undici's Agent
// alone, no command around it, body printed. Against bench/one-get.mjs (node:https) this is the
// lowest ratio any undici-based `pets list` can reach. Loaded as petstore loads it: with
// UNDICI_BUNDLE (a CommonJS bundle of the Agent, made by scripts/bench-lib.mjs with the build's
// plugins), else undici's own files; by Node's loader, with the compile cache.
process.getBuiltinModule('node:module').enableCompileCache?.();
const { Buffer } = process.getBuiltinModule('node:buffer');
const { createRequire } = process.getBuiltinModule('node:module');
const require = createRequire(import.meta.url);

const Agent = require(process.env.UNDICI_BUNDLE ?? 'undici/lib/dispatcher/agent.js');

const url = new URL(process.argv[2]);
const chunks = [];
new Agent().dispatch(
  {
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    method: 'GET',
    headers: { authorization: 'Bearer k', accept: 'application/json' },
  },
  {
    onRequestStart() {},
    onResponseStart() {},
    onResponseData(_controller, chunk) {
      chunks.push(chunk);
    },
    onResponseEnd() {
      process.stdout.write(Buffer.concat(chunks));
      process.exit(0);
    },
    onResponseError(_controller, error) {
      process.stderr.write(`${error.message}\n`);
      process.exit(1);
    },
  },
);

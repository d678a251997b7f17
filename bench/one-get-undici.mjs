// What decision 1 (undici for every scheme) costs by itself: one GET through undici's Agent
// alone, no command around it, body printed. Against bench/one-get.mjs (node:https) this is the
// lowest ratio any undici-based `pets list` can reach. Loaded as petstore loads it: with
// UNDICI_BUNDLE (a CommonJS bundle of the Agent, made by scripts/bench-speed.mjs with the
// build's plugins) run as a script with a code cache taken at exit (src/core/cached-script.ts);
// else undici's own files, with the compile cache.
process.getBuiltinModule('node:module').enableCompileCache?.();
const { Buffer } = process.getBuiltinModule('node:buffer');

function loadBundle(path) {
  const fs = process.getBuiltinModule('node:fs');
  const cachePath = `${path}.v8cache`;
  let cached;
  try {
    cached = fs.readFileSync(cachePath);
  } catch {
    cached = undefined;
  }
  const script = new (process.getBuiltinModule('node:vm').Script)(
    `(function (exports, require, module) {${fs.readFileSync(path, 'utf8')}\n})`,
    { filename: path, cachedData: cached },
  );
  const module = { exports: {} };
  script.runInThisContext()(module.exports, (id) => process.getBuiltinModule(id), module);
  if (cached === undefined || script.cachedDataRejected) {
    process.once('exit', () => fs.writeFileSync(cachePath, script.createCachedData()));
  }
  return module.exports;
}

const Agent = process.env.UNDICI_BUNDLE
  ? loadBundle(process.env.UNDICI_BUNDLE)
  : process.getBuiltinModule('node:module').createRequire(import.meta.url)(
      'undici/lib/dispatcher/agent.js',
    );

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

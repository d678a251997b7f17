// An esbuild plugin: ESM imports of Node's built-in modules, made lazy and without ESM facades.
//
// Why: importing a built-in as ESM (`import { hash } from 'node:crypto'`) builds a facade that
// reads every export, which runs the lazy getters Node keeps for rarely used parts (node:crypto
// then loads WebCrypto and its algorithms, node:http Node's own undici, node:util parseArgs and
// diff, node:process its report); and a module imported at the top of a chunk is loaded when
// the chunk is, used or not (node:crypto costs about 10 ms, node:child_process 3 ms). Here every
// such import becomes a small module that loads the built-in with process.getBuiltinModule()
// (CommonJS semantics: no facade) the first time one of its functions is called.
//
// - A named import of a function whose name starts in lower case (spawn, randomUUID, readFile)
//   becomes a wrapper that loads the module when called.
// - Any other named import (classes, objects such as `constants`) is read when the chunk loads.
// - A default import is the module itself, through a proxy that loads it on first use
//   (`process` is the global object itself).
import { builtinModules, createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const BUILTINS = new Set(builtinModules.filter((name) => !name.startsWith('_')));

function source(id) {
  const exports = require(id);
  const lines = [
    `let loaded;`,
    `const load = () => (loaded ??= process.getBuiltinModule(${JSON.stringify(id)}));`,
    `const pick = (name) => load()[name];`,
  ];
  for (const name of Object.keys(exports)) {
    if (name === 'default' || !/^[A-Za-z_$][\w$]*$/.test(name)) continue;
    const descriptor = Object.getOwnPropertyDescriptor(exports, name);
    const lazyFunction =
      descriptor && 'value' in descriptor && typeof descriptor.value === 'function';
    if (lazyFunction && /^[a-z]/.test(name)) {
      lines.push(`export function ${name}(...args) { return load().${name}(...args); }`);
    } else {
      // Pure: dropped by tree shaking when nothing imports it.
      lines.push(`export const ${name} = /* @__PURE__ */ pick(${JSON.stringify(name)});`);
    }
  }
  if (id === 'node:process') {
    lines.push('export default process;');
  } else {
    lines.push(
      'export default /* @__PURE__ */ new Proxy({}, {',
      '  get: (_target, key) => load()[key],',
      '  has: (_target, key) => key in load(),',
      '});',
    );
  }
  return lines.join('\n');
}

export const lazyBuiltins = {
  name: 'lazy-builtins',
  setup(build) {
    build.onResolve({ filter: /^(node:)?[a-z_/]+$/ }, ({ path, kind }) => {
      const name = path.replace(/^node:/, '');
      // require() of a built-in (bundled CommonJS) already has CommonJS semantics.
      if (kind !== 'import-statement' || !BUILTINS.has(name)) return undefined;
      return { path: `node:${name}`, namespace: 'lazy-builtin' };
    });
    build.onLoad({ filter: /.*/, namespace: 'lazy-builtin' }, ({ path }) => ({
      contents: source(path),
      loader: 'js',
    }));
  },
};

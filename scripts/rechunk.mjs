// Regroups esbuild's split output into fewer files, as CommonJS. esbuild puts every module that
// two entry points share into a chunk of its own, not knowing that each lazily imported module
// is only ever imported after the program has loaded: `pets list` loaded 41 files, and each
// ESM file costs resolving, reading and linking (about 0.3 ms). Rollup, given esbuild's files as
// its modules, knows what an import() finds already loaded, and joins small chunks into the
// ones loaded with them: the same command loads 4. Lazy stays lazy: --version and --help load
// none of the program, and undici, conf, the prompts and the MCP SDK load only when used.
// CommonJS: Node's loader runs it with no ESM linking, and its compile cache serves it alike.
import { Buffer } from 'node:buffer';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { rollup } from 'rollup';

/** Chunks smaller than this are joined into one loaded alongside them, where Rollup can. */
const MIN_CHUNK_BYTES = 20_000;

const posix = (path) => path.split(sep).join('/');

/**
 * Bundles `${from}/main.js` (esbuild's output, with its source maps and metafile) into `to`.
 * Returns the entry's file name, and a metafile of the same shape as esbuild's for the new
 * files: each output's inputs are the sources of every esbuild file it holds, so tests can
 * still tell where a package is.
 */
export async function rechunk(from, to, esbuildMeta) {
  const bundle = await rollup({
    input: join(from, 'main.js'),
    external: (id) => id.startsWith('node:') || (!id.startsWith('.') && !id.startsWith('/')),
    plugins: [
      {
        name: 'esbuild-output',
        // esbuild's map goes with each file, so the final maps still point into src/.
        load(id) {
          if (!existsSync(id)) return null;
          const map = `${id}.map`;
          return {
            code: readFileSync(id, 'utf8'),
            map: existsSync(map) ? readFileSync(map, 'utf8') : null,
          };
        },
        // Code keeps the import.meta.url of the file esbuild put it in (main.js finds
        // help.json beside itself), wherever Rollup moves it; CommonJS has no import.meta.
        resolveImportMeta(property, { chunkId, moduleId }) {
          if (property !== 'url') return null;
          const original = posix(relative(from, moduleId));
          const path = posix(relative(dirname(chunkId), original));
          const here = "require('node:url').pathToFileURL(__filename)";
          return `new URL(${JSON.stringify(path.startsWith('.') ? path : `./${path}`)}, ${here}).href`;
        },
      },
    ],
    // Not its report of how many chunks it joined.
    logLevel: 'warn',
    onwarn(warning, warn) {
      // esbuild's chunks may import each other both ways: legal ESM, and kept as it is.
      if (warning.code !== 'CIRCULAR_DEPENDENCY') warn(warning);
    },
  });
  const { output } = await bundle.write({
    dir: to,
    format: 'cjs',
    // import() of a package or built-in as require(), which Node's loader answers at once.
    dynamicImportInCjs: false,
    sourcemap: true,
    // The entry by a fixed name, which bin/petstore.js requires.
    entryFileNames: '[name].cjs',
    // Named for the esbuild file it grew from (without esbuild's hash), or `program`.
    chunkFileNames: ({ name, moduleIds }) =>
      moduleIds.some((id) => /[\\/]run-main-\w+\.js$/.test(id))
        ? 'chunks/program-[hash].cjs'
        : `chunks/${name.replace(/-[A-Z0-9]{8}$/, '')}-[hash].cjs`,
    experimentalMinChunkSize: MIN_CHUNK_BYTES,
    // esbuild's generated modules (lazy-builtin:node:fs, ...) have no file: named, not pathed.
    sourcemapPathTransform: (path, mapPath) => {
      const source = resolve(dirname(mapPath), path);
      return source.startsWith(resolve(from)) ? relative(join(from, 'chunks'), source) : path;
    },
  });
  await bundle.close();
  const entry = output.find((file) => file.type === 'chunk' && file.isEntry).fileName;
  // esbuild's metafile names its files relative to the working directory.
  const inputsOf = new Map(
    Object.entries(esbuildMeta.outputs).map(([file, { inputs }]) => [resolve(file), inputs]),
  );
  const outputs = {};
  for (const file of output) {
    if (file.type !== 'chunk') continue;
    const inputs = {};
    for (const module of Object.keys(file.modules)) {
      Object.assign(inputs, inputsOf.get(module));
    }
    outputs[posix(relative(process.cwd(), join(to, file.fileName)))] = {
      bytes: Buffer.byteLength(file.code),
      inputs,
    };
  }
  return { entry, meta: { outputs } };
}

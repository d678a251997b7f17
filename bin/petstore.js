#!/usr/bin/env node
// Written so that any Node can parse it, so old versions reach the version check below.
// Built-ins through getBuiltinModule, not `import`: an ESM import of node:module or node:url
// builds a facade that reads every export, loading parts of Node no command needs.

const [major, minor] = process.versions.node.split('.').map(Number);
if (major < 22 || (major === 22 && minor < 20)) {
  process.stderr.write(
    `petstore: Node.js 22.20 or newer is required; this is Node.js ${process.versions.node}.\n` +
      'To run it:\n' +
      '  - in a clone, after npm ci, on the Node 24 it brought:\n' +
      '      node_modules/.bin/node bin/petstore.js (or npx petstore)\n' +
      '  - install Node 22.20 or newer (nodejs.org, or nvm install 24)\n' +
      '  - or build the single executable, which needs no Node: npm run build:exe\n',
  );
  process.exit(2);
}

const module = process.getBuiltinModule('node:module');
// Reuses V8's compiled code between runs (Node 22.1+): a large part of start-up.
module.enableCompileCache?.();

// The program, built as CommonJS files (scripts/build.mjs), run by Node's own loader.
const { main } = module.createRequire(import.meta.url)('../dist/main.cjs');
// How to run this program again: the OS keyring is reached through a child process of it.
const selfCommand = [
  process.execPath,
  process.getBuiltinModule('node:url').fileURLToPath(import.meta.url),
];
// The process ends when main returns: idle connections are left for the exit to end.
const code = await main(process.argv.slice(2), undefined, undefined, {
  selfCommand,
  endsWithProcess: true,
});
// Interrupted (SIGINT 130, SIGTERM 143): what was in flight has been reported; wait for nothing.
if (code === 130 || code === 143) process.exit(code);
process.exitCode = code;

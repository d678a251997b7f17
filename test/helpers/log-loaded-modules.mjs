// Preloaded with --import: reports every module file the process loads, on stderr: those
// Node's loader loads, and the program's built files, which src/core/cached-script.ts runs
// as node:vm scripts.
import module from 'node:module';
import { pathToFileURL } from 'node:url';
import vm from 'node:vm';

module.registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) process.stderr.write(`loaded ${url}\n`);
    return nextLoad(url, context);
  },
});

const { Script } = vm;
vm.Script = class LoggedScript extends Script {
  constructor(code, options) {
    super(code, options);
    const filename = typeof options === 'string' ? options : options?.filename;
    if (filename) process.stderr.write(`loaded ${pathToFileURL(filename).href}\n`);
  }
};

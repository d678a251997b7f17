// Preloaded with --import: reports every module file the process loads, on stderr, as Node's
// loader loads it (ES modules and CommonJS alike).
import module from 'node:module';

module.registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) process.stderr.write(`loaded ${url}\n`);
    return nextLoad(url, context);
  },
});

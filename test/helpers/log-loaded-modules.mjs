// Preloaded with --import: reports every module file the process loads, on stderr.
import module from 'node:module';

module.registerHooks({
  load(url, context, nextLoad) {
    if (url.startsWith('file:')) process.stderr.write(`loaded ${url}\n`);
    return nextLoad(url, context);
  },
});

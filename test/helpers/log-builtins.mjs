// Preloaded with --import: on exit, lists on stderr the Node built-in modules the process
// loaded (process.moduleLoadList; read through the global, so this file loads none itself).
process.on('exit', () => {
  for (const entry of process.moduleLoadList) {
    if (entry.startsWith('NativeModule ')) process.stderr.write(`builtin ${entry.slice(13)}\n`);
  }
});

// Preloaded (with --expose-gc) by the memory benchmark: collects garbage every 100 ms and
// reports on stderr the largest heap still in use after a collection, i.e. what the command
// keeps, as opposed to its RSS, which also counts garbage not yet collected.
import { setInterval } from 'node:timers';

let peak = 0;
setInterval(() => {
  globalThis.gc();
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}, 100).unref();
process.on('exit', () => process.stderr.write(`peak heap after gc: ${peak}\n`));

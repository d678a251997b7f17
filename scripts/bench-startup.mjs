// Start-up benchmark: medians of wall time over repeated runs, all on the same Node.
// Usage: npm run bench [-- RUNS]   (run `npm run build` first)
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const runs = Number(process.argv[2] ?? 30);
const home = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
const env = {
  PATH: process.env.PATH,
  HOME: home,
  XDG_CONFIG_HOME: join(home, 'config'),
  XDG_DATA_HOME: join(home, 'data'),
};

const cases = [
  ['node -e 0', ['-e', '0']],
  ['petstore --version', ['bin/petstore.js', '--version']],
  ['petstore --help', ['bin/petstore.js', '--help']],
  // The whole client path against the embedded service: start it, one GET, stop it.
  [
    'petstore --profile sandbox pets list',
    ['bin/petstore.js', '--profile', 'sandbox', 'pets', 'list'],
  ],
  ...(process.env.BENCH_EXTRA ? JSON.parse(process.env.BENCH_EXTRA) : []),
];

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

console.log(`node ${process.version}, ${runs} runs each (after 3 warm-up runs)`);
for (const [label, args] of cases) {
  const times = [];
  for (let i = 0; i < runs + 3; i++) {
    const start = process.hrtime.bigint();
    const result = spawnSync(process.execPath, args, { env, stdio: 'ignore' });
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    if (result.status !== 0) throw new Error(`${label} exited ${result.status}`);
    if (i >= 3) times.push(ms);
  }
  console.log(
    `${label.padEnd(40)} median ${median(times).toFixed(1)} ms  min ${Math.min(...times).toFixed(1)} ms`,
  );
}
rmSync(home, { recursive: true, force: true });

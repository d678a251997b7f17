// The sandbox at a million rows: adds 1,000,000 pets to `sandbox serve --db FILE` over HTTP
// (autocannon, 32 connections), watching the size of the write-ahead log all along; then adds
// 100 sold pets at the end and times GET ?status=sold&limit=100 (sequential requests on one
// keep-alive connection). Prints the largest WAL seen and the latency p50/p95, and writes
// bench/results-1m.json. Run `npm run build` first. Usage: npm run bench:1m [-- --pets N]
import { Buffer } from 'node:buffer';
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { clearInterval, setInterval } from 'node:timers';
import autocannon from 'autocannon';

const index = process.argv.indexOf('--pets');
const PETS = index === -1 ? 1_000_000 : Number(process.argv[index + 1]);
const KEY = 'bench-key';
const scratch = mkdtempSync(join(tmpdir(), 'petstore-bench-1m-'));
const database = join(scratch, 'sandbox.db');

const child = spawn(
  process.execPath,
  // The banner as text (to a pipe it is otherwise JSON).
  [
    'bin/petstore.js',
    '--error-format',
    'text',
    'sandbox',
    'serve',
    '--port',
    '0',
    '--api-key',
    KEY,
    '--db',
    database,
  ],
  { env: { PATH: process.env.PATH, HOME: scratch }, stdio: ['ignore', 'ignore', 'pipe'] },
);
const base = await new Promise((resolve, reject) => {
  let output = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => {
    output += chunk;
    const match = /API base URL:\s+(\S+)\n/.exec(output);
    if (match) resolve(match[1]);
  });
  child.on('exit', (code) => reject(new Error(`sandbox serve exited ${code}: ${output}`)));
});

let walMax = 0;
const walWatch = setInterval(() => {
  try {
    walMax = Math.max(walMax, statSync(`${database}-wal`).size);
  } catch {
    // Not created yet, or truncated away at this instant.
  }
}, 100);

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const started = performance.now();
const insert = await autocannon({
  url: `${base}/pets`,
  method: 'POST',
  headers,
  body: '{"name":"Rex","categoryId":1,"status":"available"}',
  connections: 32,
  amount: PETS,
});
const insertSeconds = (performance.now() - started) / 1000;
if (insert.non2xx || insert.errors)
  throw new Error(`inserts: ${insert.non2xx} non-2xx, ${insert.errors} errors`);
const sold = await autocannon({
  url: `${base}/pets`,
  method: 'POST',
  headers,
  body: '{"name":"Sold","categoryId":1,"status":"sold"}',
  connections: 1,
  amount: 100,
});
if (sold.non2xx || sold.errors) throw new Error('sold inserts failed');
clearInterval(walWatch);

const agent = new Agent({ keepAlive: true, maxSockets: 1 });
const get = (path) =>
  new Promise((resolve, reject) => {
    const begin = performance.now();
    request(`${base}${path}`, { agent, headers }, (res) => {
      const chunks = [];
      res.on('data', (chunk) => chunks.push(chunk));
      res.on('end', () => resolve({ ms: performance.now() - begin, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
const latencies = [];
for (let i = 0; i < 500; i++) {
  const { ms, body } = await get('/pets?status=sold&limit=100');
  if (i === 0 && JSON.parse(body).length !== 100) throw new Error('expected 100 sold pets');
  latencies.push(ms);
}
latencies.sort((a, b) => a - b);
const p = (q) => latencies[Math.floor(q * (latencies.length - 1))];

child.kill('SIGTERM');
await new Promise((resolve) => child.on('exit', resolve));
agent.destroy();
const result = {
  node: process.version,
  at: new Date().toISOString(),
  pets: PETS,
  insertsPerSecond: Math.round(PETS / insertSeconds),
  walMaxMiB: Number((walMax / 1024 / 1024).toFixed(1)),
  databaseMiB: Number((statSync(database).size / 1024 / 1024).toFixed(1)),
  soldQueryMs: { p50: p(0.5), p95: p(0.95), min: latencies[0], max: latencies.at(-1) },
};
console.log(
  `${PETS} pets in ${insertSeconds.toFixed(1)} s (${result.insertsPerSecond}/s); largest WAL ${result.walMaxMiB} MiB (target < 64); database ${result.databaseMiB} MiB`,
);
console.log(
  `GET ?status=sold&limit=100 with the sold pets last: p50 ${p(0.5).toFixed(2)} ms, p95 ${p(0.95).toFixed(2)} ms (target p50 <= 2 ms)`,
);
writeFileSync('bench/results-1m.json', JSON.stringify(result, null, 2) + '\n');
rmSync(scratch, { recursive: true, force: true });

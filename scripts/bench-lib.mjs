// What the benchmark sections share: options, statistics, the results table, processes and
// servers to measure against. See scripts/bench.mjs.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { build } from 'esbuild';
import { lazyUndici } from './lazy-undici.mjs';
import { randomUUID } from 'node:crypto';

export const option = (name) => {
  const index = process.argv.indexOf(name);
  return index === -1 ? undefined : process.argv[index + 1];
};
export const RUNS = Number(option('--runs') ?? 20);
export const PAIRS = 3;
export const ONLY = option('--only')?.split(',');
export const wanted = (section) => !ONLY || ONLY.includes(section);
export const KEY = 'bench-key';
export const BIN = 'bin/petstore.js';
export const node = process.execPath;
export const scratch = mkdtempSync(join(tmpdir(), 'petstore-bench-'));
export const baseEnv = (name) => {
  const home = join(scratch, name);
  return {
    PATH: process.env.PATH,
    HOME: home,
    XDG_CONFIG_HOME: join(home, 'config'),
    XDG_DATA_HOME: join(home, 'data'),
  };
};

// --- statistics -------------------------------------------------------------------------

export function stats(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  const median = sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  return { median, min: sorted[0], max: sorted.at(-1) };
}

export const results = [];
/** One row: the tool's figure, the floor's, and their ratio, each as median/min/max. */
export function record(row) {
  results.push(row);
  const f = (s, digits = 1) =>
    `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}-${s.max.toFixed(digits)})`;
  console.log(
    `${row.name.padEnd(52)} ${f(row.tool)} ${row.unit} vs ${f(row.floor)} ${row.unit}  ratio ${f(row.ratio, 2)}  target ${row.target}`,
  );
}

// --- processes --------------------------------------------------------------------------

export function timeRun(argv, env, stdout = 'ignore', file = node) {
  const start = process.hrtime.bigint();
  const result = spawnSync(file, argv, { env, stdio: ['ignore', stdout, 'pipe'] });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${argv.join(' ')} exited ${result.status}: ${result.stderr}`);
  }
  return ms;
}

/** Paired runs in alternating order; the ratio is taken within each pair. */
export function pairedTimes(name, target, floor, tool) {
  for (let i = 0; i < 3; i++) (floor(), tool());
  const floors = [];
  const tools = [];
  for (let i = 0; i < RUNS; i++) {
    if (i % 2) {
      floors.push(floor());
      tools.push(tool());
    } else {
      tools.push(tool());
      floors.push(floor());
    }
  }
  record({
    name,
    unit: 'ms',
    target,
    tool: stats(tools),
    floor: stats(floors),
    ratio: stats(tools.map((t, i) => t / floors[i])),
  });
}

/** Starts a server process (node, or `command` such as taskset); resolves once it said where it listens. */
export function startServer(argv, env, pattern, command = node) {
  const child = spawn(command, argv, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk;
      const match = pattern.exec(output);
      if (match) {
        resolve({
          url: match[1],
          stop: () =>
            new Promise((done) => {
              child.on('exit', done);
              child.kill('SIGTERM');
            }),
        });
      }
    };
    child.stdout.setEncoding('utf8').on('data', onData);
    child.stderr.setEncoding('utf8').on('data', onData);
    child.on('exit', (code) => reject(new Error(`${argv.join(' ')} exited ${code}: ${output}`)));
  });
}

export const floorServer = async (listSize, extraEnv = {}) => {
  const server = await startServer(
    ['bench/floor-server.mjs', String(listSize)],
    { ...baseEnv('floor'), ...extraEnv },
    /^(\d+)\n/,
  );
  return { ...server, url: `http://127.0.0.1:${server.url}/v1` };
};
export const sandboxServer = (args, name = 'serve') =>
  startServer(
    // The banner as text: to a pipe it is otherwise a JSON object (docs/sandbox.md).
    [BIN, '--error-format', 'text', 'sandbox', 'serve', '--port', '0', '--api-key', KEY, ...args],
    baseEnv(name),
    /API base URL:\s+(\S+)\n/,
  );

export async function requestRate(options) {
  const result = await autocannon({ connections: 16, duration: 3, ...options });
  if (result.non2xx > 0 || result.errors > 0) {
    throw new Error(
      `${options.method} ${options.url}: ${result.non2xx} non-2xx, ${result.errors} errors`,
    );
  }
  return result.requests.average;
}

export const postPet = (base) => ({
  url: `${base}/pets`,
  method: 'POST',
  headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
  body: '{"name":"Rex","categoryId":1}',
});

/**
 * POST /pets as petstore sends it: each request with its own Idempotency-Key, so the server
 * does the same work per request for autocannon as for the bulk add it is compared with
 * (a key lookup and a stored answer).
 */
export const postPetWithKeys = (base) => ({
  ...postPet(base),
  requests: [
    {
      setupRequest: (request) => ({
        ...request,
        headers: { ...request.headers, 'idempotency-key': randomUUID() },
      }),
    },
  ],
});

export function records(count) {
  const file = join(scratch, `pets-${count}.ndjson`);
  writeFileSync(
    file,
    Array.from(
      { length: count },
      (_, i) => `{"name":"pet-${i}","categoryId":${(i % 7) + 1}}\n`,
    ).join(''),
  );
  return file;
}

/** undici's Agent bundled as the build bundles it (its HTTP/2 half and assert lazy), as CommonJS. */
export async function undiciBundle() {
  const outfile = join(scratch, 'undici-agent.cjs');
  await build({
    entryPoints: ['node_modules/undici/lib/dispatcher/agent.js'],
    outfile,
    bundle: true,
    format: 'cjs',
    platform: 'node',
    target: 'node22',
    plugins: [lazyUndici],
    logLevel: 'warning',
  });
  return outfile;
}

// Benchmarks, as ratios against a floor measured side by side in the same run (paired runs,
// alternating order): start-up against `node -e 0`, one request against a node:http script,
// the sandbox profile against a running sandbox, the sandbox server against a fixed-body
// node:http server, bulk add against autocannon's POST rate. Prints a table and writes
// bench/results.json. Run `npm run build` first.
//
// Usage: npm run bench [-- --runs N]
//   [--only startup,exe,request,mcp,https,listall,sandbox,server,bulk,journal,history,pinned,
//    table,memory]
import { spawnSync } from 'node:child_process';
import { existsSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  RUNS,
  PAIRS,
  wanted,
  KEY,
  BIN,
  node,
  scratch,
  baseEnv,
  stats,
  results,
  record,
  timeRun,
  pairedTimes,
  floorServer,
  sandboxServer,
  requestRate,
  postPet,
  postPetWithKeys,
  records,
  undiciBundle,
} from './bench-lib.mjs';
import { httpsSection, listAllSection, pinnedBulkSection } from './bench-speed.mjs';

// --- sections ---------------------------------------------------------------------------

console.log(`node ${process.version}; ${RUNS} paired runs per start-up figure, ${PAIRS} per rate`);

if (wanted('startup')) {
  const env = baseEnv('startup');
  const floor = () => timeRun(['-e', '0'], env);
  pairedTimes('petstore --version / node -e 0', '<= 1.3', floor, () =>
    timeRun([BIN, '--version'], env),
  );
  pairedTimes('petstore --help / node -e 0', '<= 1.5', floor, () => timeRun([BIN, '--help'], env));
  // At a terminal (a pseudo-terminal 120 columns wide, made by util-linux script): each side
  // pays the same script and stty.
  const atTerminal = (command) => () =>
    timeRun(['-qec', `stty cols 120 rows 40; ${command}`, '/dev/null'], env, 'ignore', 'script');
  pairedTimes(
    'petstore --help at a terminal / node -e 0 there',
    '<= 1.35',
    atTerminal(`${node} -e 0`),
    atTerminal(`${node} ${BIN} --help`),
  );
  pairedTimes(
    'petstore pets list --help at a terminal / node -e 0 there',
    '<= 1.35',
    atTerminal(`${node} -e 0`),
    atTerminal(`${node} ${BIN} pets list --help`),
  );
}

// The single executable, when `npm run build:exe` has made it.
const EXE = `dist/exe/petstore-${process.platform}-${process.arch}`;
if (wanted('exe') && existsSync(EXE)) {
  const env = baseEnv('exe');
  const exe = (args) => timeRun(args, env, 'ignore', EXE);
  pairedTimes(
    'single executable --version / node -e 0',
    '(measured)',
    () => timeRun(['-e', '0'], env),
    () => exe(['--version']),
  );
  pairedTimes(
    'single executable --version / bin/petstore.js --version',
    '(measured)',
    () => timeRun([BIN, '--version'], env),
    () => exe(['--version']),
  );
  pairedTimes(
    'single executable --help / bin/petstore.js --help',
    '(measured)',
    () => timeRun([BIN, '--help'], env),
    () => exe(['--help']),
  );
}

if (wanted('request')) {
  const server = await floorServer(20);
  const env = { ...baseEnv('request'), PETSTORE_BASE_URL: server.url, PETSTORE_API_KEY: KEY };
  pairedTimes(
    'pets list --json / one node:http GET',
    '<= 1.8',
    () => timeRun(['bench/one-get.mjs', `${server.url}/pets`], env),
    () => timeRun([BIN, 'pets', 'list', '--json'], env),
  );
  // Not a target: undici's Agent alone, loaded as petstore loads it, against node:http.
  const undiciEnv = { ...env, UNDICI_BUNDLE: await undiciBundle() };
  pairedTimes(
    'one undici GET / one node:http GET (what keeping undici costs)',
    'none (context)',
    () => timeRun(['bench/one-get.mjs', `${server.url}/pets`], env),
    () => timeRun(['bench/one-get-undici.mjs', `${server.url}/pets`], undiciEnv),
  );
  await server.stop();
}

if (wanted('mcp')) {
  // From spawning the server to its answer to the first tools/list (the SDK is loaded by
  // this command alone): against a Node process that answers each line at once.
  const env = {
    ...baseEnv('mcp'),
    PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1',
    PETSTORE_API_KEY: KEY,
  };
  const firstList = (argv) => {
    const run = spawnSync(node, ['bench/mcp-first-tools.mjs', node, ...argv], {
      env,
      encoding: 'utf8',
    });
    const ms = Number(run.stdout.trim());
    if (!Number.isFinite(ms) || ms <= 0) throw new Error(`no tools/list answer: ${run.stderr}`);
    return ms;
  };
  pairedTimes(
    'petstore mcp: spawn to first tools/list / node floor',
    '(measured)',
    () => firstList(['bench/mcp-floor.mjs']),
    () => firstList([BIN, 'mcp']),
  );
}

if (wanted('https')) await httpsSection();
if (wanted('listall')) await listAllSection();

if (wanted('sandbox')) {
  // Both read the same sandbox file: the profile starts it in-process, serve keeps it running.
  const env = baseEnv('sandbox-profile');
  const database = join(env.XDG_DATA_HOME, 'petstore', 'sandbox.db');
  timeRun([BIN, '--profile', 'sandbox', 'pets', 'list'], env);
  const server = await sandboxServer(['--db', database], 'sandbox-profile');
  const clientEnv = { ...env, PETSTORE_BASE_URL: server.url, PETSTORE_API_KEY: KEY };
  pairedTimes(
    '--profile sandbox pets list / pets list vs running sandbox',
    '<= 1.2',
    () => timeRun([BIN, 'pets', 'list', '--json'], clientEnv),
    () => timeRun([BIN, '--profile', 'sandbox', 'pets', 'list', '--json'], env),
  );
  await server.stop();
}

/** Rates (per second, higher is better): the ratio is tool / floor. */
function recordRates(name, target, tools, floors) {
  record({
    name,
    unit: '/s',
    target,
    tool: stats(tools),
    floor: stats(floors),
    ratio: stats(tools.map((t, i) => t / floors[i])),
  });
}

if (wanted('server')) {
  const database = join(scratch, 'server.db');
  const sandbox = await sandboxServer(['--db', database], 'server');
  const floor = await floorServer(100);
  for (const [name, options, target] of [
    ['sandbox serve --db: POST /pets rate / node:http fixed body', postPet, '>= 0.6'],
    [
      'sandbox serve --db: GET ?limit=100 rate / node:http fixed body',
      (base) => ({
        url: `${base}/pets?limit=100`,
        headers: { authorization: `Bearer ${KEY}` },
      }),
      '>= 0.5',
    ],
  ]) {
    const tools = [];
    const floors = [];
    for (let i = 0; i < PAIRS; i++) {
      tools.push(await requestRate(options(sandbox.url)));
      floors.push(await requestRate(options(floor.url)));
    }
    recordRates(name, target, tools, floors);
  }
  await sandbox.stop();
  await floor.stop();
}

/** One `pets import` of the bench's records, 16 at once, with its journal: ms. */
const bulkAdd = (file, journal, env) =>
  timeRun([BIN, 'pets', 'import', file, '--concurrency', '16', '--journal', journal], env);

if (wanted('bulk')) {
  const COUNT = 20_000;
  const file = records(COUNT);
  const tools = [];
  const floors = [];
  for (let i = 0; i < PAIRS; i++) {
    const sandbox = await sandboxServer(['--memory'], 'bulk');
    const env = { ...baseEnv('bulk'), PETSTORE_BASE_URL: sandbox.url, PETSTORE_API_KEY: KEY };
    const ms = bulkAdd(file, join(scratch, `bulk-${i}.journal`), env);
    tools.push(COUNT / (ms / 1000));
    floors.push(await requestRate(postPetWithKeys(sandbox.url)));
    await sandbox.stop();
  }
  recordRates(
    `pets import (${COUNT}, -c 16) rate / autocannon POST with Idempotency-Keys`,
    '>= 0.8',
    tools,
    floors,
  );
}

if (wanted('journal')) {
  // Issue 47's measure, issue 58's target: an import against raw undici POSTs (16 at once),
  // each on a fresh sandbox, in the same run; the best of three of each.
  const COUNT = 20_000;
  const file = records(COUNT);
  const tools = [];
  const floors = [];
  for (let i = 0; i < PAIRS; i++) {
    for (const side of ['floor', 'tool']) {
      const sandbox = await sandboxServer(['--memory'], `journal-${side}`);
      const env = { ...baseEnv('journal'), PETSTORE_BASE_URL: sandbox.url, PETSTORE_API_KEY: KEY };
      const ms =
        side === 'floor'
          ? timeRun(['bench/undici-posts.mjs', sandbox.url, file, '16'], env)
          : bulkAdd(file, join(scratch, `journal-${i}.journal`), env);
      const rate = COUNT / (ms / 1000);
      (side === 'floor' ? floors : tools).push(rate);
      await sandbox.stop();
    }
  }
  const best = (rates) => Math.max(...rates);
  console.log(
    `pets import (${COUNT}, -c 16) best ${best(tools).toFixed(0)}/s vs raw undici best ${best(floors).toFixed(0)}/s: ratio ${(best(tools) / best(floors)).toFixed(2)} (target >= 0.8)`,
  );
  results.push({
    name: 'pets import / raw undici POSTs, best of three',
    tools,
    floors,
    ratio: best(tools) / best(floors),
    target: '>= 0.8',
  });
}

if (wanted('history')) {
  // Issue 51's measure: a bulk add records each of its writes in the history of writes; its
  // rate with recording on against the same run with PETSTORE_HISTORY=off, in alternating
  // order, each on a fresh sandbox and a fresh history; the best of each.
  const COUNT = 20_000;
  const file = records(COUNT);
  const on = [];
  const off = [];
  for (let i = 0; i < PAIRS; i++) {
    for (const side of i % 2 === 0 ? ['off', 'on'] : ['on', 'off']) {
      const sandbox = await sandboxServer(['--memory'], `history-${side}-${i}`);
      const env = {
        ...baseEnv(`history-${side}-${i}`),
        PETSTORE_BASE_URL: sandbox.url,
        PETSTORE_API_KEY: KEY,
        PETSTORE_HISTORY: side,
      };
      const ms = bulkAdd(file, join(scratch, `history-${side}-${i}.journal`), env);
      (side === 'on' ? on : off).push(COUNT / (ms / 1000));
      await sandbox.stop();
    }
  }
  const best = (rates) => Math.max(...rates);
  console.log(
    `pets import (${COUNT}, -c 16) with history best ${best(on).toFixed(0)}/s vs off best ${best(off).toFixed(0)}/s: ratio ${(best(on) / best(off)).toFixed(2)} (target >= 0.9)`,
  );
  results.push({
    name: 'bulk add with the history / without, best of each',
    tools: on,
    floors: off,
    ratio: best(on) / best(off),
    target: '>= 0.9',
  });
}

if (wanted('pinned')) {
  const cpu = await pinnedBulkSection();
  if (cpu) results.push({ name: 'pets import pinned: client CPU per record (µs)', cpu });
}

if (wanted('table')) {
  // One page of 100,000 pets as a table: linear in the rows, bounded in memory.
  const COUNT = 100_000;
  const server = await floorServer(COUNT);
  const env = { ...baseEnv('table'), PETSTORE_BASE_URL: server.url, PETSTORE_API_KEY: KEY };
  const seconds = [];
  const rss = [];
  for (let i = 0; i < 3; i++) {
    const measured = spawnSync(
      '/usr/bin/time',
      ['-f', '%e %M', node, BIN, 'pets', 'list', '-o', 'table', '--limit', '100'],
      { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
    if (measured.status !== 0)
      throw new Error(`table exited ${measured.status}: ${measured.stderr}`);
    const [elapsed, kb] = measured.stderr.trim().split('\n').at(-1).split(' ').map(Number);
    seconds.push(elapsed);
    rss.push(kb / 1024);
  }
  const time = stats(seconds);
  const memory = stats(rss);
  console.log(
    `pets list -o table, one page of ${COUNT} pets: ${time.median.toFixed(2)} s (${time.min.toFixed(2)}-${time.max.toFixed(2)}), max RSS ${memory.median.toFixed(0)} MiB (${memory.min.toFixed(0)}-${memory.max.toFixed(0)})  target < 2 s, < 200 MiB`,
  );
  results.push({
    name: `pets list -o table, one page of ${COUNT} pets`,
    seconds: time,
    rssMiB: memory,
    target: '< 2 s, < 200 MiB',
  });
  await server.stop();
}

if (wanted('memory')) {
  const sandbox = await sandboxServer(['--memory'], 'memory');
  const env = { ...baseEnv('memory'), PETSTORE_BASE_URL: sandbox.url, PETSTORE_API_KEY: KEY };
  const rss = {};
  const heap = {};
  for (const count of [10_000, 100_000]) {
    const file = records(count);
    const bulk = [BIN, 'pets', 'import', file, '--concurrency', '16'];
    const measured = spawnSync(
      '/usr/bin/time',
      ['-f', '%M', node, ...bulk, '--journal', join(scratch, `mem-${count}.journal`)],
      { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
    if (measured.status !== 0)
      throw new Error(`bulk ${count} exited ${measured.status}: ${measured.stderr}`);
    rss[count] = Number(measured.stderr.trim().split('\n').at(-1)) / 1024;
    const kept = spawnSync(
      node,
      [
        '--expose-gc',
        '--import',
        './bench/peak-heap.mjs',
        ...bulk,
        '--journal',
        join(scratch, `heap-${count}.journal`),
      ],
      { env, stdio: ['ignore', 'ignore', 'pipe'], encoding: 'utf8' },
    );
    heap[count] = Number(/peak heap after gc: (\d+)/.exec(kept.stderr)?.[1]) / 1024 / 1024;
  }
  console.log(
    `pets import, 10,000 then 100,000 records: max RSS ${rss[10_000].toFixed(0)} / ${rss[100_000].toFixed(0)} MiB; heap kept (after GC) ${heap[10_000].toFixed(1)} / ${heap[100_000].toFixed(1)} MiB`,
  );
  results.push({ name: 'pets import memory (MiB)', rss, heapAfterGc: heap });
  await sandbox.stop();
}

writeFileSync(
  'bench/results.json',
  JSON.stringify(
    { node: process.version, at: new Date().toISOString(), runs: RUNS, pairs: PAIRS, results },
    null,
    2,
  ) + '\n',
);
console.log('written: bench/results.json');
rmSync(scratch, { recursive: true, force: true });

import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';

let server: TestServer;
const BODY = '[{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"sold"}]';

beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.headers.authorization !== 'Bearer sk_test_k_key') {
      sendJson(res, 401, '{"code":"unauthorized","message":"API key invalid","status":401}');
    } else {
      sendJson(res, 200, BODY);
    }
  });
});
afterAll(() => server.close());

describe('built petstore against a local server', () => {
  it('sends GET /v1/pets with the query and key, and prints the array', async () => {
    const result = await runCli(['pets', 'list', '--status', 'sold', '--limit', '5', '--json'], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_k_key' },
    });
    expect(result).toMatchObject({ code: 0, stdout: BODY + '\n', stderr: '' });
    const request = server.requests.at(-1)!;
    expect(request.method).toBe('GET');
    expect(request.url).toBe('/v1/pets?status=sold&limit=5');
    expect(request.headers.authorization).toBe('Bearer sk_test_k_key');
    expect(request.headers['user-agent']).toMatch(/^petstore-cli\/\d+\.\d+\.\d+ node\/\S+ \w+$/);
  });

  it('writes a table without escape codes when piped', async () => {
    const result = await runCli(['pets', 'list', '-o', 'table'], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_k_key' },
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('9007199254740993');
    expect(result.stdout).not.toContain('\u001b');
  });

  it('exits 3 on 401 with the service message and no stack trace', async () => {
    const result = await runCli(['pets', 'list', '-o', 'table'], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_wrong_key' },
    });
    expect(result.code).toBe(3);
    expect(result.stderr).toContain('petstore: API key invalid (unauthorized, HTTP 401)');
    expect(result.stderr).not.toMatch(/\n\s+at /);
    expect(result.stdout).toBe('');
  });

  it('exits 2 for a bad --limit and sends nothing', async () => {
    const before = server.requests.length;
    const result = await runCli(['pets', 'list', '--limit', '101'], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_k_key' },
    });
    expect(result.code).toBe(2);
    expect(server.requests.length).toBe(before);
  });
});

describe('start-up path', () => {
  it('prints the version from package.json', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };
    const result = await runCli(['--version']);
    expect(result).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });
  });

  it.each([['--version'], ['--help'], ['pets', 'list', '--help'], ['pets', 'add', '--help']])(
    '%s loads none of undici, conf, cli-table3, chalk, the prompt library',
    async (...args) => {
      // Which bundle files hold the heavy packages, from the build's metafile.
      const meta = JSON.parse(readFileSync('dist/meta.json', 'utf8')) as {
        outputs: Record<string, { inputs: Record<string, unknown> }>;
      };
      const heavy = /node_modules\/(undici|conf|cli-table3|chalk|@inquirer\/[a-z]+)\//;
      const heavyFiles = Object.entries(meta.outputs)
        .filter(([, output]) => Object.keys(output.inputs).some((input) => heavy.test(input)))
        .map(([file]) => file.replace(/^dist\//, ''));
      expect(heavyFiles.length).toBeGreaterThan(0);

      const result = await runCli(args, {
        nodeArgs: ['--import', new URL('../helpers/log-loaded-modules.mjs', import.meta.url).href],
      });
      expect(result.code).toBe(0);
      const loaded = result.stderr.split('\n').filter((line) => line.startsWith('loaded '));
      expect(loaded.some((line) => /dist\/main\.cjs$/.test(line))).toBe(true);
      for (const file of heavyFiles) {
        expect(loaded.filter((line) => line.endsWith(file))).toEqual([]);
      }
    },
  );
});

describe('files a read command loads', () => {
  // Each file costs reading and compiling; the build joins esbuild's small chunks
  // (scripts/rechunk.mjs), so a read loads bin, the entry, one shared chunk, the program and
  // undici's transport.
  it('pets list loads at most 6 of the built files', async () => {
    const result = await runCli(['pets', 'list', '--json'], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_k_key' },
      nodeArgs: ['--import', new URL('../helpers/log-loaded-modules.mjs', import.meta.url).href],
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(BODY + '\n');
    const built = result.stderr
      .split('\n')
      .filter((line) => /^loaded .*\/(bin|dist)\//.test(line) && !line.includes('node_modules'));
    expect(built.some((line) => /dist\/main\.cjs$/.test(line))).toBe(true);
    expect(built.length).toBeLessThanOrEqual(6);
  });

  it("keeps Node's compile cache of the files it ran, and the next run adds nothing", async () => {
    const cacheFolder = mkdtempSync(join(tmpdir(), 'compile-cache-'));
    try {
      const env = {
        PETSTORE_BASE_URL: `${server.url}/v1`,
        PETSTORE_API_KEY: 'sk_test_k_key',
        NODE_COMPILE_CACHE: cacheFolder,
      };
      const caches = () =>
        readdirSync(cacheFolder, { recursive: true, encoding: 'utf8' })
          .filter((name) => statSync(join(cacheFolder, name)).isFile())
          .sort();
      const run = () => runCli(['pets', 'list', '--json'], { env });
      expect(await run()).toMatchObject({ code: 0, stdout: BODY + '\n' });
      const first = caches();
      // bin, the entry, the program and undici's transport at least.
      expect(first.length).toBeGreaterThanOrEqual(4);
      expect(await run()).toMatchObject({ code: 0, stdout: BODY + '\n' });
      // None made again: Node took them all.
      expect(caches()).toEqual(first);
    } finally {
      rmSync(cacheFolder, { recursive: true, force: true });
    }
  });
});

describe('where there is no WebAssembly (node --jitless)', () => {
  it('runs as it does without a compile cache', async () => {
    const cacheFolder = mkdtempSync(join(tmpdir(), 'compile-cache-'));
    try {
      const run = (env: Record<string, string>) =>
        runCli(['--version'], { env, nodeArgs: ['--jitless'] });
      const result = await run({ NODE_COMPILE_CACHE: cacheFolder });
      expect(result.code).toBe(0);
      expect(result.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
      // Node 22 warns of --jitless itself: the same without any cache.
      expect(result).toEqual(await run({ NODE_DISABLE_COMPILE_CACHE: '1' }));
    } finally {
      rmSync(cacheFolder, { recursive: true, force: true });
    }
  });
});

describe('debugging the built program', () => {
  it('with --enable-source-maps, a --verbose stack names the source files', async () => {
    const result = await runCli(['pets', 'get', '1', '--verbose'], {
      env: { PETSTORE_BASE_URL: 'http://127.0.0.1:1/v1', PETSTORE_API_KEY: 'sk_test_k_key' },
      nodeArgs: ['--enable-source-maps'],
    });
    expect(result.code).toBe(7);
    const error = JSON.parse(result.stderr.trimEnd().split('\n').at(-1)!) as { stack: string };
    expect(error.stack).toMatch(/\n\s+at .*src\/api\/transport\.ts:\d+:\d+/);
  });
});

describe('Node built-ins a read command does not need', () => {
  // Each costs milliseconds to load (node:http2 about 25 with the node:tls and node:crypto it
  // pulls in); a bundled import, a dependency's require or a touched process.stdin would bring
  // them back.
  const UNNEEDED = [
    'crypto',
    'tls',
    'http2',
    'assert',
    'fs/promises',
    'internal/fs/promises',
    'child_process',
    'worker_threads',
    'internal/readline/interface',
    'internal/util/parse_args/parse_args',
  ];

  it.each([
    ['against a server', ['pets', 'list', '--json'], true],
    ['with the embedded sandbox', ['--profile', 'sandbox', 'pets', 'list', '--json'], false],
  ])('pets list %s loads none of them', async (_, args, toServer) => {
    const result = await runCli(args, {
      env: toServer
        ? { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_k_key' }
        : {},
      nodeArgs: ['--import', new URL('../helpers/log-builtins.mjs', import.meta.url).href],
      stdinFromDevNull: true,
    });
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(toServer ? BODY + '\n' : '[]\n');
    const builtins = result.stderr
      .split('\n')
      .filter((line) => line.startsWith('builtin '))
      .map((line) => line.slice('builtin '.length));
    // The list is read at all: node:http is needed and loaded.
    expect(builtins).toContain('http');
    // A listening server (the embedded sandbox) loads node:cluster, and with it
    // node:child_process, inside node:net's listen(): not ours to avoid.
    const unneeded = toServer ? UNNEEDED : UNNEEDED.filter((name) => name !== 'child_process');
    expect(builtins.filter((name) => unneeded.includes(name))).toEqual([]);
  });
});

describe('answered before the program is loaded', () => {
  it.each([['--version'], ['--help'], ['pets', 'add', '--help'], ['help', 'sandbox', 'serve']])(
    '%s (to a pipe) loads no part of commander',
    async (...args) => {
      const meta = JSON.parse(readFileSync('dist/meta.json', 'utf8')) as {
        outputs: Record<string, { inputs: Record<string, unknown> }>;
      };
      const commanderFiles = Object.entries(meta.outputs)
        .filter(([, output]) =>
          Object.keys(output.inputs).some((input) => input.includes('node_modules/commander/')),
        )
        .map(([file]) => file.replace(/^dist\//, ''));
      expect(commanderFiles.length).toBeGreaterThan(0);
      const result = await runCli(args, {
        nodeArgs: ['--import', new URL('../helpers/log-loaded-modules.mjs', import.meta.url).href],
      });
      expect(result.code).toBe(0);
      expect(result.stdout).not.toBe('');
      const loaded = result.stderr.split('\n').filter((line) => line.startsWith('loaded '));
      expect(loaded.some((line) => /dist\/main\.cjs$/.test(line))).toBe(true);
      for (const file of commanderFiles) {
        expect(loaded.filter((line) => line.endsWith(file))).toEqual([]);
      }
    },
  );
});

describe('old Node', () => {
  it('refuses in a few lines that say what to do, and exit 2', async () => {
    const result = await runCli(['--version'], {
      nodeArgs: ['--import', new URL('../helpers/pretend-node-20.mjs', import.meta.url).href],
    });
    expect(result.code).toBe(2);
    const lines = result.stderr.trimEnd().split('\n');
    expect(lines[0]).toBe('petstore: Node.js 22.20 or newer is required; this is Node.js 20.20.2.');
    expect(result.stderr).toContain('npx petstore');
    expect(result.stderr).toContain('npm run build:exe');
    for (const line of lines) expect(line.length).toBeLessThanOrEqual(80);
    expect(result.stdout).toBe('');
  });
});

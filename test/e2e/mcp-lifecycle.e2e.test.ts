/* eslint-disable @typescript-eslint/no-unsafe-member-access -- assertions walk a tool's JSON (helpers/mcp-client.ts, Loose) */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { call, connectMcp } from '../helpers/mcp-client.js';
import { OPENING, profileHome, rawServer, slowWritingServer } from '../helpers/mcp-raw.js';
import { BIN, freshHome, runCli } from '../helpers/run-cli.js';
import { sandboxService } from '../helpers/sandbox-service.js';
import { waitUntil } from '../helpers/wait-until.js';

/**
 * `petstore mcp` keeps the command line's promises over a session's whole life: what it offers,
 * a call the client cancels, signals, bytes split across reads, batches of another profile.
 */

type Sandbox = Awaited<ReturnType<typeof sandboxService>>;
const posts = (sandbox: Sandbox) =>
  sandbox.served.filter((request) => request.method === 'POST').length;
/** POSTs that have reached the service, answered or not. */
const postsArrived = (sandbox: Sandbox) =>
  sandbox.arrived.filter((request) => request.method === 'POST').length;

const petsNamed = (prefix: string, count: number) =>
  Array.from({ length: count }, (_, i) => ({ name: `${prefix}-${i + 1}`, category_id: '4' }));

describe('petstore mcp --tools', () => {
  it('offers only the tools named, in the fixed order; an unknown name is refused at start', async () => {
    const sandbox = await sandboxService();
    const home = await profileHome(sandbox.url, 'staging', 'allow');
    const env = { HOME: home, PETSTORE_API_KEY: sandbox.key };
    const session = await connectMcp({
      env,
      args: ['--profile', 'staging', '--allow-writes', '--tools', 'get_pet, list_pets'],
      sdk: 1,
    });
    const { tools } = await session.client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['list_pets', 'get_pet']);
    const hidden = await session.client
      .callTool({ name: 'add_pet', arguments: { name: 'Rex', category_id: '1' } })
      .then(
        (result: { isError?: boolean }) => result.isError === true,
        () => true,
      );
    expect(hidden).toBe(true);
    expect(posts(sandbox)).toBe(0);
    const typo = await runCli(['--profile', 'staging', 'mcp', '--tools', 'list_pet'], { env });
    expect(typo.code).toBe(2);
    expect(typo.stdout).toBe('');
    const refused = JSON.parse(typo.stderr.trim().split('\n').at(-1)!) as Record<string, string>;
    expect(refused.message).toBe('--tools: no tool named "list_pet" (did you mean list_pets?)');
    expect(refused.hint).toContain('list_pets, get_pet, smoke, add_pet, send_message, add_pets');
  });
});

describe('petstore mcp and a cancelled call', () => {
  it('a cancelled add_pets starts no new request; the same call again completes it, each pet once', async () => {
    const sandbox = await sandboxService({ latencyMs: { min: 30, max: 30 }, seed: 5 });
    const home = await profileHome(sandbox.url, 'staging', 'allow');
    const env = { HOME: home, PETSTORE_API_KEY: sandbox.key };
    const args = ['--profile', 'staging', '--allow-writes'];
    const pets = petsNamed('cancelled', 120);
    // The client most hosts embed, cancelling as a host does on its timeout.
    const first = await connectMcp({ env, args, sdk: 1 });
    const abort = new AbortController();
    const cut = first.client
      .callTool({ name: 'add_pets', arguments: { pets, concurrency: 2 } }, { signal: abort.signal })
      .then(
        () => 'answered',
        () => 'cancelled',
      );
    await waitUntil(() => posts(sandbox) >= 6, 'six pets created');
    abort.abort('the host timed out');
    expect(await cut).toBe('cancelled');
    const stopping = 'cancelled: starting no more requests';
    await waitUntil(() => first.stderr().includes(stopping), 'the server to take the cancel');
    // Started by then: at most the two in flight (concurrency 2) may still be on their way.
    const startedBefore = postsArrived(sandbox);
    await waitUntil(
      () => sandbox.served.length === sandbox.arrived.length,
      'the writes in flight to be answered',
    );
    expect(postsArrived(sandbox)).toBeLessThanOrEqual(startedBefore + 2);
    const afterCancel = posts(sandbox);
    expect(afterCancel).toBeLessThan(pets.length);
    // The same call again, as the tool's description tells an agent: no batch_id was given,
    // so the batch is named by its pets and this call completes it.
    const again = await call(first, 'add_pets', { pets, concurrency: 4 });
    expect(again.isError, again.text).toBe(false);
    expect(again.data.created).toHaveLength(pets.length);
    const names = await sandbox.names();
    expect(names.sort()).toEqual(pets.map((pet) => pet.name).sort());
    expect(first.stderr()).toContain('cancelled: starting no more requests');
  });

  it('a cancelled request is no longer open: closing stdin then ends the server at once', async () => {
    const { sandbox, raw } = await slowWritingServer(200);
    for (const message of OPENING) raw.send(message);
    await raw.answer(1);
    raw.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add_pets', arguments: { pets: petsNamed('gone', 40), concurrency: 1 } },
    });
    await waitUntil(() => postsArrived(sandbox) > 0, 'the first write to reach the service');
    raw.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 2 } });
    raw.end();
    // Counted as open, the request would hold the server for its 30 s wait, past this test's.
    expect(await raw.exited).toBe(0);
    // The protocol's rule: a cancelled request gets no answer.
    expect(raw.messages().find((message) => message.id === 2)).toBeUndefined();
  });
});

describe('a confirmation nobody answers', () => {
  /** A confirm profile, and a 2025-era client that can be asked but never answers. */
  async function waitingForAnswer() {
    const sandbox = await sandboxService();
    const home = await profileHome(sandbox.url, 'staging', 'confirm');
    const raw = rawServer({ HOME: home, PETSTORE_API_KEY: sandbox.key }, [
      '--profile',
      'staging',
      '--allow-writes',
    ]);
    const opening = structuredClone(OPENING);
    (opening[0]!.params as { capabilities: unknown }).capabilities = { elicitation: {} };
    for (const message of opening) raw.send(message);
    await raw.answer(1);
    raw.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add_pet', arguments: { name: 'Unconfirmed', category_id: '1' } },
    });
    await waitUntil(
      () =>
        raw
          .messages()
          .some((message) => (message as { method?: unknown }).method === 'elicitation/create'),
      'the person to be asked',
    );
    return { sandbox, raw };
  }

  it('ends with stdin: refused at once, nothing sent, the server gone (no ten-minute wait)', async () => {
    const { sandbox, raw } = await waitingForAnswer();
    raw.end();
    expect(await raw.exited).toBe(0);
    const answered = raw.messages().find((message) => message.id === 2);
    expect(answered?.result.isError).toBe(true);
    expect(JSON.stringify(answered?.result.content)).toMatch(
      /the server stopped before the person answered/,
    );
    expect(posts(sandbox)).toBe(0);
  });

  it('ends with SIGTERM: exit 143, nothing sent', async () => {
    const { sandbox, raw } = await waitingForAnswer();
    raw.kill('SIGTERM');
    expect(await raw.exited).toBe(143);
    expect(posts(sandbox)).toBe(0);
  });
});

describe('petstore mcp and signals', () => {
  it('SIGTERM during add_pets: no new call, the writes in flight settled, exit 143; the batch completes later', async () => {
    const { sandbox, raw } = await slowWritingServer(40);
    for (const message of OPENING) raw.send(message);
    await raw.answer(1);
    const pets = petsNamed('term', 80);
    raw.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add_pets', arguments: { pets, batch_id: 'term-batch', concurrency: 2 } },
    });
    await waitUntil(() => posts(sandbox) >= 4, 'four pets created');
    raw.kill('SIGTERM');
    await waitUntil(
      () => raw.stderrSaidAt('SIGTERM: taking no new call') !== undefined,
      'the server to take SIGTERM',
    );
    raw.send({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'add_pet', arguments: { name: 'After-the-signal', category_id: '1' } },
    });
    expect(await raw.exited).toBe(143);
    // No request started once the server had taken the signal (a few ms for the pipes).
    const stopped = raw.stderrSaidAt('SIGTERM: taking no new call');
    expect(stopped).toBeDefined();
    const late = sandbox.served.filter((request) => request.arrivedAt > stopped! + 50);
    expect(late).toEqual([]);
    expect(posts(sandbox)).toBeLessThan(pets.length);
    expect(await sandbox.names()).not.toContain('After-the-signal');
    expect(raw.stderr()).toMatch(/SIGTERM: taking no new call/);
    const answered = raw.messages().find((message) => message.id === 2);
    expect(answered?.result.isError).toBe(true);
    expect(answered?.result.structuredContent.error).toMatchObject({ code: 'cancelled' });
    expect(answered?.result.structuredContent.error.message).toMatch(/^the server is stopping: /);
    expect(answered?.result.structuredContent.error.hint).toMatch(
      /Call add_pets again with the same pets/,
    );
    // What the signal left is completed by the same call, each pet once.
    const home = raw.env.HOME;
    const again = await connectMcp({
      env: { HOME: home, PETSTORE_API_KEY: sandbox.key },
      args: ['--profile', 'staging', '--allow-writes'],
      sdk: 1,
    });
    const done = await call(again, 'add_pets', { pets, batch_id: 'term-batch' });
    expect(done.isError, done.text).toBe(false);
    expect((await sandbox.names()).sort()).toEqual(pets.map((pet) => pet.name).sort());
  });

  it('SIGINT when idle ends the server with 130', async () => {
    const { raw } = await slowWritingServer(0);
    for (const message of OPENING) raw.send(message);
    await raw.answer(1);
    raw.kill('SIGINT');
    expect(await raw.exited).toBe(130);
  });
});

describe('petstore mcp reads its input as one stream of bytes', () => {
  it('keeps a character whose bytes two reads split, and answers a line that is not UTF-8 as a parse error', async () => {
    const { sandbox, raw } = await slowWritingServer(0);
    for (const message of OPENING) raw.send(message);
    await raw.answer(1);
    const line = Buffer.from(
      `${JSON.stringify({
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'add_pet', arguments: { name: 'Zoë 🐈', category_id: '1' } },
      })}\n`,
    );
    // Cut inside ë (2 bytes), and again inside the cat (4 bytes), each part its own read.
    const e = line.indexOf(Buffer.from('ë'));
    const cat = line.indexOf(Buffer.from('🐈'));
    for (const [from, to] of [
      [0, e + 1],
      [e + 1, cat + 2],
      [cat + 2, line.length],
    ] as const) {
      raw.writeBytes(line.subarray(from, to));
      // A fixed pause, the only way to have each part read on its own: nothing tells a
      // client that a part without its line's end was read.
      await new Promise((resolve) => setTimeout(resolve, 60));
    }
    expect((await raw.answer(2))?.result.isError).not.toBe(true);
    expect(await sandbox.names()).toEqual(['Zoë 🐈']);
    raw.writeBytes(
      Buffer.concat([
        Buffer.from('{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":"'),
        Buffer.from([0xff, 0xfe]),
        Buffer.from('"}}\n'),
      ]),
    );
    raw.send({ jsonrpc: '2.0', id: 4, method: 'ping' });
    expect((await raw.answer(4))?.result).toBeDefined();
    const refused = raw.messages().filter((message) => message.id === null);
    expect(refused.map((message) => message.error.code as number)).toEqual([-32700]);
    expect(raw.stderr()).toContain('not UTF-8');
    raw.end();
    expect(await raw.exited).toBe(0);
  });
});

describe('petstore mcp and batches of another profile', () => {
  it("a batch id of another profile's run is no batch here: nothing of that profile is named", async () => {
    const alpha = await sandboxService();
    const bravo = await sandboxService();
    const home = await profileHome(alpha.url, 'alpha', 'allow');
    const set = await runCli(
      ['profile', 'set', 'bravo', '--base-url', bravo.url, '--agent-writes', 'allow'],
      { env: { HOME: home } },
    );
    expect(set.code, set.stderr).toBe(0);
    const first = await connectMcp({
      env: { HOME: home, PETSTORE_API_KEY: alpha.key },
      args: ['--profile', 'alpha', '--allow-writes'],
    });
    const ran = await call(first, 'add_pets', {
      pets: petsNamed('alpha', 3),
      batch_id: 'shared-name',
    });
    expect(ran.isError, ran.text).toBe(false);
    const second = await connectMcp({
      env: { HOME: home, PETSTORE_API_KEY: bravo.key },
      args: ['--profile', 'bravo', '--allow-writes'],
    });
    for (const pets of [petsNamed('alpha', 3), petsNamed('bravo', 2)]) {
      const result = await call(second, 'add_pets', { pets, batch_id: 'shared-name' });
      expect(result.text).not.toContain(alpha.url);
      expect(result.text).not.toMatch(/\balpha\b(?!-)/);
      if (pets[0]!.name.startsWith('alpha')) {
        // A new batch on bravo's service: alpha's journal is not read.
        expect(result.isError, result.text).toBe(false);
        expect(result.data.created).toHaveLength(3);
      }
    }
    expect(await alpha.names()).toHaveLength(3);
  });
});

describe('petstore mcp --print-config from another config folder', () => {
  it('carries the folder in env, and a client with a filtered environment reaches the profile', async () => {
    const sandbox = await sandboxService();
    const home = freshHome();
    const configDir = mkdtempSync(join(tmpdir(), 'petstore-alt-config-'));
    const shell = { HOME: home, PETSTORE_CONFIG_DIR: configDir };
    const set = await runCli(
      ['profile', 'set', 'alt', '--base-url', sandbox.url, '--agent-writes', 'allow'],
      { env: shell },
    );
    expect(set.code, set.stderr).toBe(0);
    const login = await runCli(
      ['auth', 'login', '--profile', 'alt', '--no-verify', '--insecure-storage'],
      { env: shell, input: `${sandbox.key}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    const printed = await runCli(['--profile', 'alt', 'mcp', '--print-config', 'claude'], {
      env: shell,
    });
    expect(printed.code, printed.stderr).toBe(0);
    const entry = (
      JSON.parse(printed.stdout) as {
        mcpServers: { petstore: { command: string; args: string[]; env?: Record<string, string> } };
      }
    ).mcpServers.petstore;
    expect(entry.env).toEqual({ PETSTORE_CONFIG_DIR: configDir });
    expect(printed.stdout).not.toContain(sandbox.key);
    expect(entry.args).toEqual([BIN, 'mcp', '--profile', 'alt']);
    // As a host starts it: HOME and PATH, and the snippet's env; nothing else of the shell.
    const session = await connectMcp({
      env: { HOME: home, ...entry.env },
      args: entry.args.slice(2),
      sdk: 1,
    });
    const listed = await call(session, 'list_pets');
    expect(listed.isError, listed.text).toBe(false);
  });
});

describe('petstore mcp --print-config with settings of this shell', () => {
  it('carries the quickstart URL, --timeout and --retries; refuses a URL that holds credentials', async () => {
    const sandbox = await sandboxService();
    const home = await profileHome(sandbox.url, 'staging');
    const login = await runCli(
      ['auth', 'login', '--profile', 'staging', '--no-verify', '--insecure-storage'],
      { env: { HOME: home }, input: `${sandbox.key}\n` },
    );
    expect(login.code, login.stderr).toBe(0);
    const env = { HOME: home, PETSTORE_QUICKSTART_URL: `${sandbox.url}/quick` };
    const printed = await runCli(
      [
        '--profile',
        'staging',
        '--timeout',
        '5',
        '--retries',
        '0',
        'mcp',
        '--print-config',
        'claude',
      ],
      { env },
    );
    expect(printed.code, printed.stderr).toBe(0);
    const entry = (JSON.parse(printed.stdout) as { mcpServers: { petstore: { args: string[] } } })
      .mcpServers.petstore;
    expect(entry.args.slice(1)).toEqual([
      'mcp',
      '--profile',
      'staging',
      '--quickstart-url',
      `${sandbox.url}/quick`,
      '--timeout',
      '5',
      '--retries',
      '0',
    ]);
    // What the snippet says, the server accepts.
    const session = await connectMcp({ env: { HOME: home }, args: entry.args.slice(2), sdk: 1 });
    expect((await call(session, 'list_pets')).isError).toBe(false);

    const secret = 'hunter2-quick';
    const withCredentials = await runCli(
      ['--profile', 'staging', 'mcp', '--print-config', 'claude'],
      { env: { HOME: home, PETSTORE_QUICKSTART_URL: `https://ops:${secret}@quick.example` } },
    );
    expect(withCredentials.code).toBe(2);
    expect(withCredentials.stdout).toBe('');
    expect(withCredentials.stderr).toContain('--quickstart-url holds credentials');
    expect(withCredentials.stderr).not.toContain(secret);
  });
});

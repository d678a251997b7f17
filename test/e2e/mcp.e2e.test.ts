/* eslint-disable @typescript-eslint/no-unsafe-member-access, @typescript-eslint/no-unsafe-assignment -- assertions walk a tool's JSON (helpers/mcp-client.ts, Loose) */
import { describe, expect, it } from 'vitest';
import {
  call,
  connectMcp,
  errorOfResult,
  type Era,
  type Loose,
  type Person,
  type Sdk,
} from '../helpers/mcp-client.js';
import { OPENING, profileHome, rawServer, slowWritingServer } from '../helpers/mcp-raw.js';
import { BIN, freshHome, runCli } from '../helpers/run-cli.js';
import { sandboxService } from '../helpers/sandbox-service.js';
import { waitUntil } from '../helpers/wait-until.js';

/**
 * `petstore mcp` as an agent's client drives it: the official client SDK over stdio, against
 * the built program and a sandbox service over real HTTP that counts every request.
 */

const INT64_MAX = '9223372036854775807';

async function server(
  sandbox: Awaited<ReturnType<typeof sandboxService>>,
  options: {
    profile: string;
    agentWrites?: string;
    allowWrites?: boolean;
    person?: Person;
    raw?: boolean;
    era?: Era;
    sdk?: Sdk;
  },
) {
  const home = await profileHome(sandbox.url, options.profile, options.agentWrites);
  return connectMcp({
    env: { HOME: home, PETSTORE_API_KEY: sandbox.key },
    args: [
      '--profile',
      options.profile,
      ...(options.allowWrites === false ? [] : ['--allow-writes']),
    ],
    person: options.person,
    raw: options.raw,
    era: options.era,
    sdk: options.sdk,
  });
}

const posts = (sandbox: Awaited<ReturnType<typeof sandboxService>>) =>
  sandbox.served.filter((request) => request.method === 'POST').length;

describe('petstore mcp', () => {
  it('lists its tools with schemas and hints from the interface', async () => {
    const sandbox = await sandboxService();
    const session = await server(sandbox, { profile: 'staging', allowWrites: false });
    const { tools } = await session.client.listTools();
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    // In a fixed order: reads first, then writes.
    expect(tools.map((tool) => tool.name)).toEqual([
      'list_pets',
      'get_pet',
      'smoke',
      'add_pet',
      'send_message',
      'add_pets',
    ]);
    for (const tool of tools) {
      // A closed domain (this profile's store only), and a title for a host to show.
      expect(tool.annotations, tool.name).toMatchObject({ openWorldHint: false });
      expect(tool.title, tool.name).toEqual(expect.any(String));
    }
    for (const name of ['list_pets', 'get_pet', 'smoke']) {
      expect(byName.get(name)!.annotations).toMatchObject({
        readOnlyHint: true,
        destructiveHint: false,
        idempotentHint: true,
      });
    }
    for (const name of ['add_pet', 'add_pets', 'send_message']) {
      expect(byName.get(name)!.annotations).toMatchObject({
        readOnlyHint: false,
        destructiveHint: false,
      });
    }
    const addPet = byName.get('add_pet')!.inputSchema as {
      properties: Loose;
      required: string[];
    };
    expect(addPet.properties.category_id.type).toBe('string');
    expect(addPet.properties.status.enum).toEqual(['available', 'pending', 'sold']);
    expect(addPet.required).toEqual(expect.arrayContaining(['name', 'category_id']));
    const list = byName.get('list_pets')!.inputSchema as { properties: Loose };
    expect(list.properties.limit).toMatchObject({ minimum: 1, maximum: 100 });
    expect(byName.get('get_pet')!.description).toMatch(/deprecated.*2030-12-05/i);
    for (const tool of tools) expect(tool.outputSchema, tool.name).toBeDefined();
  });

  it('keeps int64 exact both ways, and says get_pet is deprecated', async () => {
    const sandbox = await sandboxService();
    const session = await server(sandbox, { profile: 'staging', agentWrites: 'allow' });
    const added = await call(session, 'add_pet', {
      name: 'Max',
      category_id: INT64_MAX,
      status: 'sold',
    });
    expect(added.isError, added.text).toBe(false);
    expect(added.data.pet).toMatchObject({ name: 'Max', categoryId: INT64_MAX, status: 'sold' });
    const listed = await call(session, 'list_pets', { status: 'sold' });
    expect(listed.data.pets).toEqual([expect.objectContaining({ categoryId: INT64_MAX })]);
    // The service holds the exact value (the command line prints it as a bare number).
    const cli = await runCli(['pets', 'list', '-o', 'json'], { env: sandbox.env });
    expect(cli.stdout).toMatch(new RegExp(`"categoryId":\\s*${INT64_MAX}\\b`));
    const got = await call(session, 'get_pet', { pet_id: added.data.pet.id });
    expect(got.data.deprecation).toMatchObject({ deprecated: true, removalDate: '2030-12-05' });
    const missing = await call(session, 'get_pet', { pet_id: INT64_MAX });
    expect(missing.isError).toBe(true);
    expect(missing.error).toMatchObject({
      code: 'pet_not_found',
      status: 404,
      exitCode: 4,
      class: 'ApiError',
    });
    expect(missing.error.message).toContain(INT64_MAX);
    expect(missing.text).not.toMatch(/\bat .*\.js:\d+/);
  });

  it('refuses every write where the profile denies them, and without --allow-writes', async () => {
    const sandbox = await sandboxService();
    // production denies agent writes unless its profile says otherwise.
    const denied = await server(sandbox, { profile: 'production' });
    const writes: [string, Record<string, unknown>][] = [
      ['add_pet', { name: 'Rex', category_id: '1' }],
      ['add_pets', { pets: [{ name: 'Rex', category_id: '1' }] }],
      ['send_message', { message: 'hello' }],
    ];
    for (const [tool, args] of writes) {
      const result = await call(denied, tool, args);
      expect(result.isError, tool).toBe(true);
      expect(result.error).toMatchObject({ code: 'writes_denied', exitCode: 2 });
    }
    const readOnly = await server(sandbox, {
      profile: 'staging',
      agentWrites: 'allow',
      allowWrites: false,
    });
    for (const [tool, args] of writes) {
      expect((await call(readOnly, tool, args)).error.code, tool).toBe('writes_off');
    }
    expect(posts(sandbox)).toBe(0);
    // A dry run sends nothing, so it is no write: it shows the request, the key as every
    // front end masks it, to the clients hosts run (the SDK's 1.x and 2.x clients).
    for (const sdk of [1, 2] as const) {
      const client = await server(sandbox, { profile: 'staging', allowWrites: false, sdk });
      const dry = await call(client, 'add_pet', { name: 'Rex', category_id: '1', dry_run: true });
      expect(dry.data.request.headers.authorization, `sdk ${sdk}`).toBe('Bearer ****');
      expect(dry.text).not.toContain(sandbox.key);
      expect(dry.data.request.body).toEqual({ name: 'Rex', categoryId: '1' });
    }
    expect(posts(sandbox)).toBe(0);
  });

  describe.each<Era>(['legacy', '2026-07-28'])('confirmation, protocol %s', (era) => {
    it('sends nothing when the person declines, or when the client cannot ask', async () => {
      const sandbox = await sandboxService();
      const declining = await server(sandbox, { profile: 'staging', person: 'decline', era });
      const result = await call(declining, 'add_pet', { name: 'Rex', category_id: '7' });
      expect(result.error.code).toBe('declined');
      expect(declining.asked).toHaveLength(1);
      expect(declining.asked[0]).toContain('POST ');
      expect(declining.asked[0]).toMatch(/Idempotency-Key: [0-9a-f-]{36}/);
      expect(declining.asked[0]).not.toContain(sandbox.key);
      const mute = await server(sandbox, { profile: 'staging', person: 'cannot ask', era });
      expect((await call(mute, 'send_message', { message: 'hi' })).error.code).toBe(
        'cannot_confirm',
      );
      expect(
        (await call(mute, 'add_pets', { pets: [{ name: 'A', category_id: '1' }] })).error.code,
      ).toBe('cannot_confirm');
      expect(posts(sandbox)).toBe(0);
      expect(sandbox.served).toHaveLength(0);
    });

    it('sends what the person accepted, with the key shown; a retry with its request_id creates nothing new', async () => {
      const sandbox = await sandboxService();
      const session = await server(sandbox, { profile: 'staging', person: 'accept', era });
      const args = { name: 'Bella', category_id: '3', request_id: 'order-17' };
      const first = await call(session, 'add_pet', args);
      expect(first.isError, first.text).toBe(false);
      expect(session.asked[0]).toContain(`Idempotency-Key: ${first.data.idempotencyKey}`);
      const sent = sandbox.served.filter((request) => request.method === 'POST');
      expect(sent.map((request) => request.idempotencyKey)).toEqual([first.data.idempotencyKey]);
      const again = await call(session, 'add_pet', args);
      expect(again.data).toMatchObject({
        idempotencyKey: first.data.idempotencyKey,
        replayed: true,
      });
      expect(await sandbox.names()).toEqual(['Bella']);
      // The same request_id with another body is refused by the service: it names one write.
      const other = await call(session, 'add_pet', { ...args, name: 'Luna' });
      expect(other.isError).toBe(true);
      expect(other.error.status).toBeGreaterThanOrEqual(400);
      const same = await call(session, 'add_pet', { ...args, category_id: '03' });
      expect(same.data).toMatchObject({
        idempotencyKey: first.data.idempotencyKey,
        replayed: true,
      });
      expect(await sandbox.names()).toEqual(['Bella']);
    });

    it('a batch called again once complete asks the person nothing: nothing is sent', async () => {
      const sandbox = await sandboxService();
      const session = await server(sandbox, { profile: 'staging', person: 'accept', era });
      const pets = [
        { name: 'Once', category_id: '1' },
        { name: 'Twice', category_id: '1' },
      ];
      const first = await call(session, 'add_pets', { pets });
      expect(first.isError, first.text).toBe(false);
      expect(session.asked).toHaveLength(1);
      const again = await call(session, 'add_pets', { pets });
      expect(again.isError, again.text).toBe(false);
      expect(again.data.created).toHaveLength(2);
      expect(session.asked).toHaveLength(1);
      expect(posts(sandbox)).toBe(2);
    });

    it('shows the person every pet of a batch before any is sent', async () => {
      const sandbox = await sandboxService();
      const session = await server(sandbox, { profile: 'staging', person: 'decline', era });
      const pets = Array.from({ length: 25 }, (_, i) => ({ name: `P${i}`, category_id: '1' }));
      pets.push({ name: 'Hidden\u001b[8m at the end', category_id: '2' });
      const result = await call(session, 'add_pets', { pets });
      expect(result.error.code).toBe('declined');
      for (const pet of pets.slice(0, 25))
        expect(session.asked[0]).toContain(`"name":"${pet.name}"`);
      expect(session.asked[0]).toContain(
        '26. {"name":"Hidden\\u001b[8m at the end","categoryId":2}',
      );
      expect(posts(sandbox)).toBe(0);
    });
  });

  // The 1.x client checks a result's structuredContent against the tool's output schema once
  // it has read tools/list (the helper reads it first, as hosts do): an error result that
  // carried a non-conforming structuredContent reached the agent as a protocol error.
  describe.each<Sdk>([1, 2])('every failure explained to the SDK %s client', (sdk) => {
    it('a missing pet, a bad argument and writes off each come back as a result that says why', async () => {
      const sandbox = await sandboxService();
      const session = await server(sandbox, { profile: 'staging', allowWrites: false, sdk });
      const missing = await call(session, 'get_pet', { pet_id: '424242' });
      expect(missing.isError).toBe(true);
      expect(missing.text).toMatch(/^petstore: .*424242/);
      expect(missing.error).toMatchObject({ code: 'pet_not_found', status: 404, exitCode: 4 });
      const bad = await call(session, 'list_pets', { limit: 1000 });
      expect(bad.isError).toBe(true);
      expect(bad.error).toMatchObject({ code: 'usage', exitCode: 2 });
      expect(bad.text).toMatch(/invalid arguments: .*limit/);
      const unknownArg = await call(session, 'get_pet', { pet_id: '1', verbose: true });
      expect(unknownArg.error.code).toBe('usage');
      // Half of a character (a lone surrogate, as JSON can carry it): refused as the JSON form
      // of a line that is not UTF-8, before any tool reads it, even in a dry run.
      for (const [tool, args] of [
        ['send_message', { message: 'Hello \uD83D there', dry_run: true }],
        ['add_pet', { name: 'Zo\uDC00', category_id: '1', dry_run: true }],
        ['add_pets', { pets: [{ name: '\uD800', category_id: '1' }], dry_run: true }],
        ['add_pet', { name: 'Zoe', category_id: '1', request_id: 'id-\uD800' }],
        ['get_pet', { pet_id: '1', ['k\uD800']: 1 }],
      ] as const) {
        const broken = await call(session, tool, args).catch((error: unknown) => String(error));
        expect(broken, tool).toMatch(/lone surrogate/);
      }
      const off = await call(session, 'add_pet', { name: 'Rex', category_id: '1' });
      expect(off.error.code).toBe('writes_off');
      expect(off.text).toMatch(/hint: .*--allow-writes, or use dry_run/);
      // Worded for the agent: dry_run is something it can do itself.
      expect(off.text).not.toContain('no tool does this');
      const batchOff = await call(session, 'add_pets', { pets: [{ name: 'A', category_id: '1' }] });
      expect(batchOff.error.code).toBe('writes_off');
      expect(posts(sandbox)).toBe(0);
    });

    it('a client that cannot confirm and a declined confirmation say why; an allowed write creates once', async () => {
      const sandbox = await sandboxService();
      const mute = await server(sandbox, { profile: 'staging', person: 'cannot ask', sdk });
      const cannot = await call(mute, 'add_pet', { name: 'Rex', category_id: '1' });
      expect(cannot.error.code).toBe('cannot_confirm');
      expect(cannot.text).toMatch(/cannot ask/);
      const declining = await server(sandbox, { profile: 'staging', person: 'decline', sdk });
      const declined = await call(declining, 'add_pet', { name: 'Nope', category_id: '1' });
      expect(declined.error.code).toBe('declined');
      expect(declining.asked).toHaveLength(1);
      // A client that says it can ask, then fails to show the form: the reason, in our words.
      const failing = await server(sandbox, { profile: 'staging', person: 'fails to ask', sdk });
      const unasked = await call(failing, 'add_pet', { name: 'Nope', category_id: '1' });
      expect(unasked.error.code, unasked.text).toBe('cannot_confirm');
      expect(unasked.text).toMatch(/^petstore: .*could not ask the person.*nothing was sent/);
      expect(unasked.text).toContain('the form could not be shown');
      expect(unasked.text).not.toMatch(/\[31m|x{200}/);
      expect(posts(sandbox)).toBe(0);
      const accepting = await server(sandbox, { profile: 'staging', person: 'accept', sdk });
      const added = await call(accepting, 'add_pet', {
        name: 'Ziggy',
        category_id: '2',
        request_id: `sdk-${sdk}`,
      });
      expect(added.isError, added.text).toBe(false);
      expect(added.data.pet).toMatchObject({ name: 'Ziggy', categoryId: '2' });
      expect(await sandbox.names()).toEqual(['Ziggy']);
      const batch = await call(accepting, 'add_pets', {
        pets: [
          { name: 'Alpha', category_id: '3' },
          { name: 'Beta', category_id: '3' },
        ],
      });
      expect(batch.isError, batch.text).toBe(false);
      expect(batch.data.created).toHaveLength(2);
      expect((await sandbox.names()).sort()).toEqual(['Alpha', 'Beta', 'Ziggy']);
    });
  });

  it('add_pets cut off mid-way and called again creates each pet once', async () => {
    const sandbox = await sandboxService({ latencyMs: { min: 20, max: 40 }, seed: 7 });
    const home = await profileHome(sandbox.url, 'staging', 'allow');
    const env = { HOME: home, PETSTORE_API_KEY: sandbox.key };
    const pets = Array.from({ length: 30 }, (_, i) => ({
      name: `pet-${i + 1}`,
      category_id: String(i + 1),
    }));
    const args = ['--profile', 'staging', '--allow-writes'];
    const first = await connectMcp({ env, args });
    const cut = call(first, 'add_pets', { pets, batch_id: 'agent-import-1', concurrency: 2 }).catch(
      (error: unknown) => error,
    );
    await waitUntil(() => posts(sandbox) >= 6, 'six pets created');
    process.kill(first.pid!, 'SIGKILL');
    await cut;
    const before = (await sandbox.names()).length;
    expect(before).toBeLessThan(30);
    const second = await connectMcp({ env, args });
    const done = await call(second, 'add_pets', { pets, batch_id: 'agent-import-1' });
    expect(done.isError, done.text).toBe(false);
    expect(done.data.batchId).toBe('agent-import-1');
    expect(done.data.created).toHaveLength(30);
    const names = await sandbox.names();
    expect(names.sort()).toEqual(pets.map((pet) => pet.name).sort());
    // Called once more: nothing new, every pet still reported.
    const third = await call(second, 'add_pets', { pets, batch_id: 'agent-import-1' });
    expect(third.data.created).toHaveLength(30);
    expect(await sandbox.names()).toHaveLength(30);
  });

  it('add_pets of one batch from two servers at once keeps one journal: a later call completes it', async () => {
    const sandbox = await sandboxService({ latencyMs: { min: 30, max: 30 }, seed: 3 });
    const home = await profileHome(sandbox.url, 'staging', 'allow');
    const env = { HOME: home, PETSTORE_API_KEY: sandbox.key };
    const args = ['--profile', 'staging', '--allow-writes'];
    const pets = Array.from({ length: 20 }, (_, i) => ({ name: `twin-${i}`, category_id: '5' }));
    const [one, two] = await Promise.all([connectMcp({ env, args }), connectMcp({ env, args })]);
    const batch = { pets, batch_id: 'twin-batch', concurrency: 1 };
    const both = await Promise.all([call(one, 'add_pets', batch), call(two, 'add_pets', batch)]);
    for (const result of both.filter((answer) => answer.isError)) {
      expect(result.error.hint).toMatch(/Another call is sending batch "twin-batch"/);
      // Who holds it (pid, host, lock files) is the person's to see, not the agent's.
      expect(result.text).not.toMatch(/pid|\.lock|petstore-locks/);
    }
    const last = await call(one, 'add_pets', batch);
    expect(last.isError, last.text).toBe(false);
    expect(last.data.created).toHaveLength(20);
    expect((await sandbox.names()).sort()).toEqual(pets.map((pet) => pet.name).sort());
  });

  it('one batch_id sent to two services at once: two batches, neither waits for the other', async () => {
    const slow = { latencyMs: { min: 40, max: 40 }, seed: 4 };
    const [east, west] = await Promise.all([sandboxService(slow), sandboxService(slow)]);
    // Two profiles of one person: one config, one state folder (journals and locks).
    const home = await profileHome(east.url, 'east', 'allow');
    const setWest = ['profile', 'set', 'west', '--base-url', west.url, '--agent-writes', 'allow'];
    expect((await runCli(setWest, { env: { HOME: home } })).code).toBe(0);
    const [one, two] = await Promise.all(
      [
        { profile: 'east', key: east.key },
        { profile: 'west', key: west.key },
      ].map(({ profile, key }) =>
        connectMcp({
          env: { HOME: home, PETSTORE_API_KEY: key },
          args: ['--profile', profile, '--allow-writes'],
        }),
      ),
    );
    const pets = Array.from({ length: 50 }, (_, i) => ({ name: `shared-${i}`, category_id: '3' }));
    const batch = { pets, batch_id: 'same-name', concurrency: 1 };
    const both = await Promise.all([call(one!, 'add_pets', batch), call(two!, 'add_pets', batch)]);
    for (const result of both) {
      expect(result.isError, result.text).toBe(false);
      expect(result.data.created).toHaveLength(50);
    }
    expect(await east.names()).toHaveLength(50);
    expect(await west.names()).toHaveLength(50);
  });

  it('never shows the key in any JSON-RPC line, even when the service echoes it', async () => {
    const sandbox = await sandboxService();
    // A pet whose name holds the key, added behind the agent's back.
    await fetch(`${sandbox.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `leak ${sandbox.key} here`, categoryId: 1 }),
    });
    const encoded = Buffer.from(sandbox.key).toString('base64');
    await fetch(`${sandbox.url}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${sandbox.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: `encoded ${encoded}`, categoryId: 1 }),
    });
    const session = await server(sandbox, { profile: 'staging', person: 'accept', raw: true });
    await call(session, 'list_pets', { all: true });
    await call(session, 'add_pet', { name: 'Rex', category_id: '2' });
    await call(session, 'add_pet', { name: 'Rex', category_id: '2', dry_run: true });
    await call(session, 'get_pet', { pet_id: '1' });
    await call(session, 'smoke');
    await call(session, 'send_message', { message: 'hello', dry_run: true });
    await session.close();
    const lines = [...session.serverLines(), ...session.clientLines()];
    expect(lines.length).toBeGreaterThan(10);
    for (const line of lines) {
      expect(line).not.toContain(sandbox.key);
      expect(line).not.toContain(encoded);
    }
    expect(session.serverLines().join('\n')).toContain('leak ');
    expect(session.stderr()).not.toContain(sandbox.key);
  });
});

describe('petstore mcp --print-config', () => {
  it('prints the registration for each client: the command and profile, never a key', async () => {
    const home = freshHome();
    const env = { HOME: home, PETSTORE_API_KEY: 'sk_print_config_SECRET' };
    const claude = await runCli(
      ['--profile', 'staging', 'mcp', '--print-config', 'claude', '--allow-writes'],
      { env },
    );
    expect(claude.code, claude.stderr).toBe(0);
    expect(JSON.parse(claude.stdout)).toEqual({
      mcpServers: {
        petstore: {
          command: process.execPath,
          args: [BIN, 'mcp', '--profile', 'staging', '--allow-writes'],
        },
      },
    });
    const vscode = await runCli(['mcp', '--print-config', 'vscode'], { env });
    expect(JSON.parse(vscode.stdout)).toEqual({
      servers: {
        petstore: {
          type: 'stdio',
          command: process.execPath,
          args: [BIN, 'mcp', '--profile', 'sandbox'],
        },
      },
    });
    expect(vscode.stderr).toContain('.vscode/mcp.json');
    for (const result of [claude, vscode])
      expect(result.stdout + result.stderr).not.toContain('SECRET');
    // A profile that does not exist, or has no key the client could use, is said at once.
    const missing = await runCli(['--profile', 'nosuch', 'mcp', '--print-config', 'cursor'], {
      env,
    });
    expect(missing.code).toBe(2);
    expect(missing.stdout).toBe('');
    const keyless = await runCli(['--profile', 'staging', 'mcp', '--print-config', 'cursor'], {
      env: { HOME: home },
    });
    expect(keyless.code).toBe(0);
    expect(keyless.stderr).toContain('has no key yet');
    const bad = await runCli(['mcp', '--print-config', 'emacs'], { env });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/claude, cursor, vscode/);
  });

  it('refuses to serve a key it cannot tell from data', async () => {
    const home = await profileHome('http://127.0.0.1:9/v1', 'staging');
    for (const key of ['abc12', '1234567890123']) {
      const result = await runCli(['--profile', 'staging', 'mcp'], {
        env: { HOME: home, PETSTORE_API_KEY: key },
      });
      expect(result.code).toBe(2);
      expect(result.stdout).toBe('');
      expect(result.stderr).toContain('cannot be told from data');
    }
  });

  it('exits 3 at start when its profile has no key, saying so on stderr only', async () => {
    const home = await profileHome('http://127.0.0.1:9/v1', 'staging');
    const result = await runCli(['--profile', 'staging', 'mcp'], { env: { HOME: home } });
    expect(result.code).toBe(3);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('auth login --profile staging');
  });
});

describe('petstore mcp on a raw pipe', () => {
  it('answers a malformed line with a JSON-RPC error, says it on stderr, and keeps serving', async () => {
    const sandbox = await sandboxService();
    const raw = rawServer(sandbox.env);
    raw.send('this is not JSON-RPC');
    for (const message of OPENING) raw.send(message);
    raw.send({ jsonrpc: '2.0', id: 10, method: 'tools/call', params: null });
    raw.send({ jsonrpc: '1.0', id: 11, method: 'tools/list' });
    raw.send([{ jsonrpc: '2.0', id: 12, method: 'tools/list' }]);
    raw.send({
      jsonrpc: '2.0',
      id: 13,
      method: 'tools/call',
      params: { name: 'add_pet', arguments: { name: 'Rex', category_id: '1', confirm: true } },
    });
    raw.send({ jsonrpc: '2.0', id: 15, method: 'tools/call', params: ['list_pets'] });
    raw.send({ jsonrpc: '2.0', id: 16, method: 'ping', extra: 1 });
    raw.send({ jsonrpc: '2.0', id: 17.5, method: 'ping', result: {} });
    raw.send([
      { jsonrpc: '2.0', id: 'b1', method: 'ping' },
      { jsonrpc: '2.0', id: 'b2', method: 'ping' },
    ]);
    raw.send(
      '{"jsonrpc":"2.0","id":18,"method":"tools/call","params":{"name":"list_pets","arguments":{"__proto__":{"limit":1}}}}',
    );
    raw.send({ jsonrpc: '2.0', id: 14, method: 'tools/list' });
    expect((await raw.answer(1))?.result).toBeDefined();
    expect((await raw.answer(10))?.error).toMatchObject({ code: -32600 });
    expect((await raw.answer(11))?.error).toMatchObject({ code: -32600 });
    // An argument the tool does not take is refused as such, in the tools' error form.
    const unknown = (await raw.answer(13))?.result;
    expect(unknown.isError).toBe(true);
    expect(unknown.structuredContent).toBeUndefined();
    expect(errorOfResult(unknown)).toMatchObject({
      code: 'usage',
      exitCode: 2,
      class: 'UsageError',
    });
    expect((await raw.answer(14))?.result.tools).toHaveLength(6);
    // Every request with an id is answered, whatever the SDK would make of it.
    for (const id of [12, 15, 16, 17.5, 'b1', 'b2', 18]) {
      expect((await raw.answer(id))?.error, String(id)).toMatchObject({ code: -32600 });
    }
    raw.end();
    expect(await raw.exited).toBe(0);
    expect(raw.stderr()).toMatch(
      /petstore mcp: ignored a line that is not JSON: this is not JSON-RPC/,
    );
    const nulls = raw.messages().filter((message) => message.id === null);
    expect(nulls.map((message) => message.error.code as number)).toEqual([-32700]);
    expect(sandbox.served).toHaveLength(0);
  });

  it('answers every request the client sent before it closed stdin, the last line unended too', async () => {
    const { sandbox, raw } = await slowWritingServer(300);
    for (const message of OPENING) raw.send(message);
    raw.send({
      jsonrpc: '2.0',
      id: 8,
      method: 'tools/call',
      params: { name: 'list_pets', arguments: {} },
    });
    raw.write(
      '{"jsonrpc":"2.0","id":9,"method":"tools/call","params":{"name":"add_pet","arguments":{"name":"Unended","category_id":"1"}}}',
    );
    raw.end();
    expect(await raw.exited).toBe(0);
    expect(
      raw.messages().find((message) => message.id === 8)?.result.structuredContent.pets,
    ).toEqual([]);
    expect(
      raw.messages().find((message) => message.id === 9)?.result.structuredContent.pet,
    ).toMatchObject({
      name: 'Unended',
    });
    expect(await sandbox.names()).toEqual(['Unended']);
  });

  it('answers a write in flight when the client closes stdin, then ends', async () => {
    const { sandbox, raw } = await slowWritingServer(600);
    for (const message of OPENING) raw.send(message);
    await raw.answer(1);
    raw.send({
      jsonrpc: '2.0',
      id: 2,
      method: 'tools/call',
      params: { name: 'add_pet', arguments: { name: 'Late', category_id: '1' } },
    });
    await waitUntil(
      () => sandbox.arrived.some((request) => request.method === 'POST'),
      'the write to reach the service',
    );
    raw.end();
    expect(await raw.exited).toBe(0);
    const answer = raw.messages().find((message) => message.id === 2);
    expect(answer?.result.structuredContent.pet).toMatchObject({ name: 'Late' });
    expect(await sandbox.names()).toEqual(['Late']);
  });
});

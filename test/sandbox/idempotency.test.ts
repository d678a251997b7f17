import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { IDEMPOTENCY_KEY_LIFETIME_MS } from '../../src/sandbox/database.js';
import { startSandboxServer, type RunningSandbox } from '../../src/sandbox/server.js';

const KEY = 'sandbox-idempotency-key';
const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

async function start(database = ':memory:', now?: () => number) {
  const sandbox = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    database,
    apiKeys: [KEY, 'other-key'],
    now,
  });
  running.push(sandbox);
  return sandbox;
}

async function post(
  url: string,
  body: unknown,
  idempotencyKey?: string,
  apiKey = KEY,
): Promise<{ status: number; replayed: string | null; json: unknown }> {
  const headers: Record<string, string> = {
    authorization: `Bearer ${apiKey}`,
    'content-type': 'application/json',
  };
  if (idempotencyKey !== undefined) headers['idempotency-key'] = idempotencyKey;
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return {
    status: response.status,
    replayed: response.headers.get('idempotent-replayed'),
    json: await response.json(),
  };
}

async function petCount(sandbox: RunningSandbox): Promise<number> {
  const response = await fetch(`${sandbox.apiBaseUrl}/pets?limit=100`, {
    headers: { authorization: `Bearer ${KEY}` },
  });
  return ((await response.json()) as unknown[]).length;
}

describe('the sandbox honours Idempotency-Key', () => {
  it('replays the first answer for the same key and body, creating nothing', async () => {
    const sandbox = await start();
    const pets = `${sandbox.apiBaseUrl}/pets`;
    const first = await post(pets, { name: 'Rex', categoryId: 1 }, 'k1');
    expect(first).toEqual({
      status: 201,
      replayed: null,
      json: { id: 1, name: 'Rex', categoryId: 1 },
    });
    const again = await post(pets, { categoryId: 1, name: 'Rex' }, 'k1');
    expect(again).toEqual({ ...first, replayed: 'true' });
    expect(await petCount(sandbox)).toBe(1);
  });

  it('refuses the same key with another body: 422, nothing created', async () => {
    const sandbox = await start();
    const pets = `${sandbox.apiBaseUrl}/pets`;
    await post(pets, { name: 'Rex', categoryId: 1 }, 'k1');
    const other = await post(pets, { name: 'Tom', categoryId: 1 }, 'k1');
    expect(other.status).toBe(422);
    expect(other.json).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    expect(await petCount(sandbox)).toBe(1);
  });

  it('scopes a key to its route and its API key, and stores no rejection', async () => {
    const sandbox = await start();
    const pets = `${sandbox.apiBaseUrl}/pets`;
    await post(pets, { name: 'Rex', categoryId: 1 }, 'k1');
    expect((await post(pets, { name: 'Rex', categoryId: 1 }, 'k1', 'other-key')).status).toBe(201);
    const message = await post(`${sandbox.quickstartUrl}/messages`, { message: 'hi' }, 'k1');
    expect(message.status).toBe(202);
    const replayed = await post(`${sandbox.quickstartUrl}/messages`, { message: 'hi' }, 'k1');
    expect(replayed).toEqual({ ...message, replayed: 'true' });
    // A 400 is not stored: the key can then be used for a valid body.
    expect((await post(pets, { name: '', categoryId: 1 }, 'k2')).status).toBe(400);
    expect((await post(pets, { name: 'Ok', categoryId: 1 }, 'k2')).status).toBe(201);
    expect(await petCount(sandbox)).toBe(3);
  });

  it('forgets a key after 24 hours', async () => {
    let now = Date.parse('2026-11-23T10:00:00Z');
    const sandbox = await start(':memory:', () => now);
    const pets = `${sandbox.apiBaseUrl}/pets`;
    await post(pets, { name: 'Rex', categoryId: 1 }, 'k1');
    now += IDEMPOTENCY_KEY_LIFETIME_MS - 1;
    expect((await post(pets, { name: 'Rex', categoryId: 1 }, 'k1')).replayed).toBe('true');
    now += 2;
    const later = await post(pets, { name: 'Rex', categoryId: 1 }, 'k1');
    expect(later).toMatchObject({ status: 201, replayed: null, json: { id: 2 } });
  });

  it('one key sent to two servers sharing the file: one pet, every other answer a replay', async () => {
    const file = join(mkdtempSync(join(tmpdir(), 'petstore-idem-')), 'sandbox.db');
    const [a, b] = [await start(file), await start(file)];
    const body = { name: 'Rex', categoryId: 7 };
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        post(`${(i % 2 ? a : b).apiBaseUrl}/pets`, body, 'same'),
      ),
    );
    expect(new Set(replies.map((reply) => JSON.stringify([reply.status, reply.json])))).toEqual(
      new Set([JSON.stringify([201, { id: 1, ...body }])]),
    );
    expect(replies.filter((reply) => reply.replayed === 'true')).toHaveLength(19);
    expect(await petCount(a)).toBe(1);
  });

  it('answers 400 to a key longer than 255 characters', async () => {
    const sandbox = await start();
    const reply = await post(
      `${sandbox.apiBaseUrl}/pets`,
      { name: 'Rex', categoryId: 1 },
      'k'.repeat(256),
    );
    expect(reply).toMatchObject({ status: 400, json: { code: 'invalid_idempotency_key' } });
    expect(await petCount(sandbox)).toBe(0);
  });
});

import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSandboxServer, type RunningSandbox } from '../../src/sandbox/server.js';
import { waitUntil } from '../helpers/wait-until.js';

const KEY = 'sandbox-test-key';
const running: RunningSandbox[] = [];

async function start(options: { database?: string; idStart?: bigint } = {}) {
  const sandbox = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    database: options.database ?? ':memory:',
    apiKeys: [KEY],
    idStart: options.idStart,
  });
  running.push(sandbox);
  return sandbox;
}

afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

interface Reply {
  status: number;
  headers: Headers;
  text: string;
  json: unknown;
}

async function call(
  url: string,
  init: {
    method?: string;
    body?: string;
    headers?: Record<string, string>;
    key?: string | null;
  } = {},
): Promise<Reply> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.key !== null) headers.authorization = `Bearer ${init.key ?? KEY}`;
  if (init.body !== undefined) headers['content-type'] ??= 'application/json';
  const response = await fetch(url, { method: init.method ?? 'GET', body: init.body, headers });
  const text = await response.text();
  return {
    status: response.status,
    headers: response.headers,
    text,
    json: JSON.parse(text) as unknown,
  };
}

function expectError(reply: Reply, status: number, code: string) {
  expect(reply.status).toBe(status);
  expect(reply.headers.get('content-type')).toBe('application/json');
  expect(reply.json).toEqual({ code, message: expect.any(String) as string, status });
}

describe('authentication', () => {
  it.each([
    ['missing', { key: null }],
    ['unknown', { key: 'nope' }],
    ['malformed', { key: null, headers: { authorization: `Basic ${KEY}` } }],
    ['lower-case scheme', { key: null, headers: { authorization: `bearer ${KEY}` } }],
  ])('answers 401 with an Error body for a %s key, on every operation', async (_label, init) => {
    const { apiBaseUrl, quickstartUrl } = await start();
    const listed = await call(`${apiBaseUrl}/pets`, init);
    expectError(listed, 401, 'unauthorized');
    // RFC 6750: a 401 names the scheme it wants.
    expect(listed.headers.get('www-authenticate')).toMatch(/^Bearer realm="animal-store"/);
    expectError(
      await call(`${apiBaseUrl}/pets`, { ...init, method: 'POST', body: '{}' }),
      401,
      'unauthorized',
    );
    expectError(await call(`${apiBaseUrl}/pets/1`, init), 401, 'unauthorized');
    expectError(
      await call(`${quickstartUrl}/messages`, { ...init, method: 'POST', body: '{}' }),
      401,
      'unauthorized',
    );
  });
});

describe('POST /v1/pets', () => {
  it('creates pets with service-assigned int64 ids', async () => {
    const { apiBaseUrl } = await start();
    const first = await call(`${apiBaseUrl}/pets`, {
      method: 'POST',
      body: '{"name":"Rex","categoryId":9223372036854775807,"status":"available"}',
    });
    expect(first.status).toBe(201);
    expect(first.text).toBe(
      '{"id":1,"name":"Rex","categoryId":9223372036854775807,"status":"available"}',
    );
    const second = await call(`${apiBaseUrl}/pets`, {
      method: 'POST',
      body: '{"name":"Tom","categoryId":-3}',
    });
    expect(second.text).toBe('{"id":2,"name":"Tom","categoryId":-3}');
  });

  it('starts ids at --id-start, beyond 2^53, exactly', async () => {
    const { apiBaseUrl } = await start({ idStart: 9007199254740993n });
    const created = await call(`${apiBaseUrl}/pets`, {
      method: 'POST',
      body: '{"name":"Big","categoryId":1}',
    });
    expect(created.text).toBe('{"id":9007199254740993,"name":"Big","categoryId":1}');
    const fetched = await call(`${apiBaseUrl}/pets/9007199254740993`);
    expect(fetched.text).toBe(created.text);
  });

  it('answers 507, not 500, once the largest int64 id has been given', async () => {
    const { apiBaseUrl } = await start({ idStart: 9223372036854775806n });
    const body = '{"name":"Last","categoryId":1}';
    for (const id of ['9223372036854775806', '9223372036854775807']) {
      const created = await call(`${apiBaseUrl}/pets`, { method: 'POST', body });
      expect(created.text).toContain(`"id":${id}`);
    }
    expectError(await call(`${apiBaseUrl}/pets`, { method: 'POST', body }), 507, 'ids_exhausted');
    // Nothing was half-written: reads still work.
    expect((await call(`${apiBaseUrl}/pets?limit=100`)).json).toHaveLength(2);
  });

  it('tells a body nested too deeply from one that is not JSON, and refuses invalid UTF-8', async () => {
    const { apiBaseUrl } = await start();
    const deep = `{"name":"A","categoryId":1,"x":${'['.repeat(3000)}${']'.repeat(3000)}}`;
    const nested = await call(`${apiBaseUrl}/pets`, { method: 'POST', body: deep });
    expectError(nested, 400, 'invalid_body');
    expect((nested.json as { message: string }).message).toContain('nested more than 1000');
    const latin1 = await fetch(`${apiBaseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: Buffer.from('{"name":"Caf\xe9","categoryId":1}', 'latin1'),
    });
    expect(latin1.status).toBe(400);
    expect(await latin1.text()).toContain('not valid UTF-8');
  });

  it.each([
    ['{}', 'missing_field'],
    ['{"categoryId":1}', 'missing_field'],
    ['{"name":"Rex"}', 'missing_field'],
    ['{"name":"","categoryId":1}', 'invalid_name'],
    ['{"name":"   ","categoryId":1}', 'invalid_name'],
    ['{"name":7,"categoryId":1}', 'invalid_name'],
    [`{"name":"${'x'.repeat(257)}","categoryId":1}`, 'invalid_name'],
    ['{"name":"Rex","categoryId":1.5}', 'invalid_category_id'],
    ['{"name":"Rex","categoryId":"1"}', 'invalid_category_id'],
    ['{"name":"Rex","categoryId":9223372036854775808}', 'invalid_category_id'],
    ['{"name":"Rex","categoryId":1,"status":"lost"}', 'invalid_status'],
    ['{"name":"Rex","categoryId":1,"id":5}', 'unknown_field'],
    ['[1]', 'invalid_body'],
    ['{"name":', 'invalid_json'],
  ])('answers 400 to %s', async (body, code) => {
    const { apiBaseUrl } = await start();
    expectError(await call(`${apiBaseUrl}/pets`, { method: 'POST', body }), 400, code);
  });

  it('answers 400 without a JSON content type and 413 past the size limit', async () => {
    const { apiBaseUrl } = await start();
    const plain = await call(`${apiBaseUrl}/pets`, {
      method: 'POST',
      body: '{"name":"Rex","categoryId":1}',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(plain, 400, 'invalid_content_type');
    const huge = JSON.stringify({ name: 'x'.repeat(70_000), categoryId: 1 });
    expectError(
      await call(`${apiBaseUrl}/pets`, { method: 'POST', body: huge }),
      413,
      'payload_too_large',
    );
  });
});

describe('a body past the size limit', () => {
  /**
   * A server that closes a connection while its client still sends resets it, and the reset
   * can reach the client before the 413 does (an outcome unknown, a record sent again): the
   * sandbox answers at once and reads the rest, and the connection serves the next request.
   */
  it('is answered 413 at once, the rest read to its end, the connection kept', async () => {
    const { apiBaseUrl } = await start();
    const url = new URL(apiBaseUrl);
    const socket = connect(Number(url.port), url.hostname);
    const errors: Error[] = [];
    socket.on('error', (error) => errors.push(error));
    let received = '';
    const answers = (count: number) =>
      waitUntil(() => received.split('HTTP/1.1 ').length > count, 'the answers');
    socket.on('data', (chunk: Buffer) => (received += chunk.toString('latin1')));
    const size = 4 * 1024 * 1024;
    const head = (method: string, path: string, length: number) =>
      `${method} ${url.pathname}${path} HTTP/1.1\r\nhost: ${url.host}\r\nauthorization: Bearer ${KEY}\r\ncontent-type: application/json\r\ncontent-length: ${length}\r\n\r\n`;
    socket.write(head('POST', '/pets', size));
    socket.write(Buffer.alloc(256 * 1024, 0x78));
    await answers(1);
    expect(received).toMatch(/^HTTP\/1\.1 413 /);
    // Sent after the answer: read, not reset.
    for (let sent = 256 * 1024; sent < size; sent += 256 * 1024) {
      await new Promise<void>((resolve) =>
        socket.write(Buffer.alloc(256 * 1024, 0x78), () => resolve()),
      );
    }
    socket.write(head('GET', '/pets?limit=1', 0));
    await answers(2);
    expect(received.split('HTTP/1.1 ')[2]).toMatch(/^200 /);
    expect(errors).toEqual([]);
    socket.destroy();
  });
});

describe('GET /v1/pets', () => {
  it('lists in id order, 20 by default, filtered by status, limited to 1..100', async () => {
    const { apiBaseUrl } = await start();
    for (let i = 0; i < 25; i++) {
      const status = i % 2 === 0 ? 'available' : 'sold';
      await call(`${apiBaseUrl}/pets`, {
        method: 'POST',
        body: JSON.stringify({ name: `p${i}`, categoryId: i, status }),
      });
    }
    const all = (await call(`${apiBaseUrl}/pets`)).json as { id: number; status: string }[];
    expect(all.map((pet) => pet.id)).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    const sold = (await call(`${apiBaseUrl}/pets?status=sold&limit=100`)).json as {
      status: string;
    }[];
    expect(sold).toHaveLength(12);
    expect(new Set(sold.map((pet) => pet.status))).toEqual(new Set(['sold']));
    expect((await call(`${apiBaseUrl}/pets?limit=3`)).json).toHaveLength(3);
    for (const query of ['limit=0', 'limit=101', 'limit=1.5', 'limit=abc']) {
      expectError(await call(`${apiBaseUrl}/pets?${query}`), 400, 'invalid_limit');
    }
    expectError(await call(`${apiBaseUrl}/pets?status=lost`), 400, 'invalid_status');
  });

  it('answers an empty array when there are no pets', async () => {
    const { apiBaseUrl } = await start();
    const reply = await call(`${apiBaseUrl}/pets`);
    expect(reply.text).toBe('[]');
    expect(reply.headers.get('link')).toBeNull();
  });

  it('links each page to the next with Link rel="next" and an opaque cursor, to the end', async () => {
    const { apiBaseUrl } = await start({ idStart: 9007199254740990n });
    for (let i = 0; i < 7; i++) {
      await call(`${apiBaseUrl}/pets`, {
        method: 'POST',
        body: JSON.stringify({ name: `p${i}`, categoryId: i, status: i % 2 ? 'sold' : 'pending' }),
      });
    }
    const origin = new URL(apiBaseUrl).origin;
    const walk = async (first: string) => {
      const pages: string[] = [];
      let url: string | undefined = first;
      while (url !== undefined) {
        const reply = await call(url);
        pages.push(reply.text);
        const link = reply.headers.get('link');
        url = link === null ? undefined : origin + /^<([^>]+)>; rel="next"$/.exec(link)![1]!;
      }
      return pages.map((page) => (JSON.parse(page) as { name: string }[]).map((pet) => pet.name));
    };
    expect(await walk(`${apiBaseUrl}/pets?limit=3`)).toEqual([
      ['p0', 'p1', 'p2'],
      ['p3', 'p4', 'p5'],
      ['p6'],
    ]);
    // The filter and the page size carry over in the link; a full last page links nothing.
    expect(await walk(`${apiBaseUrl}/pets?status=sold&limit=2`)).toEqual([['p1', 'p3'], ['p5']]);
    expect(await walk(`${apiBaseUrl}/pets?limit=7`)).toEqual([
      ['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6'],
    ]);
    // Ids beyond 2^53 page exactly: nothing skipped or repeated at the boundary.
    const ids = (await walk(`${apiBaseUrl}/pets?limit=1`)).flat();
    expect(ids).toEqual(['p0', 'p1', 'p2', 'p3', 'p4', 'p5', 'p6']);
  });

  it('refuses a cursor it did not give', async () => {
    const { apiBaseUrl } = await start();
    for (const cursor of ['abc', 'YWZ0ZXI6eA', '', 'a'.repeat(100)]) {
      expectError(await call(`${apiBaseUrl}/pets?cursor=${cursor}`), 400, 'invalid_cursor');
    }
  });
});

describe('GET /v1/pets/{petId} (deprecated)', () => {
  it('sends Deprecation and Sunset headers, and 404 with an Error body when absent', async () => {
    const { apiBaseUrl } = await start();
    await call(`${apiBaseUrl}/pets`, { method: 'POST', body: '{"name":"Rex","categoryId":1}' });
    const found = await call(`${apiBaseUrl}/pets/1`);
    expect(found.status).toBe(200);
    expect(found.headers.get('deprecation')).toBe('true');
    expect(found.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    const missing = await call(`${apiBaseUrl}/pets/2`);
    expectError(missing, 404, 'pet_not_found');
    expect(missing.headers.get('sunset')).toBe('Thu, 05 Dec 2030 00:00:00 GMT');
    expectError(await call(`${apiBaseUrl}/pets/abc`), 400, 'invalid_pet_id');
    expectError(await call(`${apiBaseUrl}/pets/99999999999999999999`), 400, 'invalid_pet_id');
  });
});

describe('routing', () => {
  it('answers 404 for unknown routes and 405 with Allow for wrong methods', async () => {
    const { apiBaseUrl } = await start();
    expectError(await call(`${apiBaseUrl}/store/orders`), 404, 'not_found');
    const wrong = await call(`${apiBaseUrl}/pets`, { method: 'DELETE' });
    expectError(wrong, 405, 'method_not_allowed');
    expect(wrong.headers.get('allow')).toBe('GET, POST');
  });
});

describe('POST /quickstart/messages', () => {
  it('queues a message', async () => {
    const { quickstartUrl } = await start();
    const reply = await call(`${quickstartUrl}/messages`, {
      method: 'POST',
      body: '{"message":"hi"}',
    });
    expect(reply.status).toBe(202);
    const body = reply.json as Record<string, string>;
    expect(body).toMatchObject({ message: 'hi', status: 'queued' });
    expect(body.id).toMatch(/^msg_[0-9a-f]{16}$/);
    expect(new Date(body.createdAt!).toISOString()).toBe(body.createdAt);
  });

  it.each([
    ['{"message":', 'invalid_json'],
    ['{}', 'missing_field'],
    ['{"message":5}', 'invalid_message'],
  ])('answers 400 to %s', async (body, code) => {
    const { quickstartUrl } = await start();
    expectError(await call(`${quickstartUrl}/messages`, { method: 'POST', body }), 400, code);
  });

  it('answers 400 without a JSON content type', async () => {
    const { quickstartUrl } = await start();
    const reply = await call(`${quickstartUrl}/messages`, {
      method: 'POST',
      body: '{"message":"hi"}',
      headers: { 'content-type': 'text/plain' },
    });
    expectError(reply, 400, 'invalid_content_type');
  });
});

describe('X-Request-Id', () => {
  it('differs on every answer, errors included', async () => {
    const sandbox = await start();
    const ids: (string | null)[] = [];
    for (const url of [`${sandbox.apiBaseUrl}/pets`, `${sandbox.apiBaseUrl}/nowhere`]) {
      for (let i = 0; i < 5; i++) ids.push((await call(url)).headers.get('x-request-id'));
    }
    for (const id of ids) expect(id).toMatch(/^req_[0-9a-f]{16}_[0-9a-z]+$/);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('storage', () => {
  it('keeps data in the file across restarts', async () => {
    const database = join(mkdtempSync(join(tmpdir(), 'sandbox-db-')), 'sandbox.db');
    const first = await start({ database });
    await call(`${first.apiBaseUrl}/pets`, {
      method: 'POST',
      body: '{"name":"Rex","categoryId":1}',
    });
    await first.close();
    running.splice(running.indexOf(first), 1);
    const second = await start({ database });
    expect((await call(`${second.apiBaseUrl}/pets`)).text).toBe(
      '[{"id":1,"name":"Rex","categoryId":1}]',
    );
  });
});

describe('a database file from an earlier version', () => {
  it('is upgraded in place: its pets are listed, by status too, and new ids follow', async () => {
    const database = join(mkdtempSync(join(tmpdir(), 'sandbox-db-')), 'sandbox.db');
    // The pets table as earlier versions made it: no stored JSON column.
    const { DatabaseSync } = process.getBuiltinModule('node:sqlite');
    const old = new DatabaseSync(database);
    old.exec(`PRAGMA journal_mode = WAL;
      CREATE TABLE pets (id INTEGER PRIMARY KEY, name TEXT NOT NULL, category_id INTEGER NOT NULL, status TEXT);
      CREATE INDEX pets_by_status ON pets (status, id);
      INSERT INTO pets VALUES (7, 'Rex', 1, 'sold'), (9223372036854775806, 'Tom', 2, NULL);`);
    old.close();

    const sandbox = await start({ database });
    expect((await call(`${sandbox.apiBaseUrl}/pets`)).text).toBe(
      '[{"id":7,"name":"Rex","categoryId":1,"status":"sold"},{"id":9223372036854775806,"name":"Tom","categoryId":2}]',
    );
    expect((await call(`${sandbox.apiBaseUrl}/pets?status=sold`)).text).toBe(
      '[{"id":7,"name":"Rex","categoryId":1,"status":"sold"}]',
    );
    const created = await call(`${sandbox.apiBaseUrl}/pets`, {
      method: 'POST',
      body: '{"name":"Kit","categoryId":3}',
    });
    expect(created.text).toBe('{"id":9223372036854775807,"name":"Kit","categoryId":3}');

    const check = new DatabaseSync(database);
    const indexes = check.prepare('PRAGMA index_list(pets)').all() as { name: string }[];
    check.close();
    expect(indexes.map((index) => index.name)).toContain('pets_by_status');
  });
});

describe('pets rendered as JSON by SQLite', () => {
  it('round-trips any name exactly, and keeps an absent status absent', async () => {
    const sandbox = await start();
    const name = 'Zoë "Q" \\ back\u0001slash \u2028 😀 </script>';
    const created = await call(`${sandbox.apiBaseUrl}/pets`, {
      method: 'POST',
      body: JSON.stringify({ name, categoryId: 9223372036854775807n.toString() }).replace(
        /"(9223372036854775807)"/,
        '$1',
      ),
    });
    expect(created.status).toBe(201);
    expect(created.text).toBe(
      `{"id":1,"name":${JSON.stringify(name)},"categoryId":9223372036854775807}`,
    );
    const listed = await call(`${sandbox.apiBaseUrl}/pets`);
    expect(JSON.parse(listed.text)).toEqual([JSON.parse(created.text)]);
    const empty = await call(`${sandbox.apiBaseUrl}/pets?status=sold`);
    expect(empty.text).toBe('[]');
  });
});

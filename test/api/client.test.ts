import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineHint } from '../../src/output/wording.js';
import { joinUrl } from '../../src/api/client.js';
import { ApiError, NetworkError, ProtocolError, TryLaterError } from '../../src/core/errors.js';
import { sendJson, startTestServer } from '../helpers/test-server.js';
import { useNockGuard } from '../helpers/nock-guard.js';
import { useTestClients } from '../helpers/test-client.js';

const ORIGIN = 'http://api.petstore.test';
const KEY = 'sk_test_SECRET_1234';
const JSON_HEADERS = { 'content-type': 'application/json' };

const client = useTestClients({
  baseUrl: `${ORIGIN}/v1`,
  quickstartUrl: `${ORIGIN}/quickstart`,
  apiKey: KEY,
});

useNockGuard();

describe('joinUrl', () => {
  it('keeps /v1 with or without a trailing slash', () => {
    expect(joinUrl('https://x.test/v1', 'pets').href).toBe('https://x.test/v1/pets');
    expect(joinUrl('https://x.test/v1/', '/pets').href).toBe('https://x.test/v1/pets');
    expect(joinUrl('https://x.test/api/v1//', 'pets/7').href).toBe('https://x.test/api/v1/pets/7');
  });
});

describe('listPets', () => {
  it('sends the query, bearer key and JSON headers; returns the pets', async () => {
    nock(ORIGIN, {
      reqheaders: {
        authorization: `Bearer ${KEY}`,
        accept: 'application/json',
        'user-agent': 'petstore-cli/test',
      },
    })
      .get('/v1/pets')
      .query({ status: 'sold', limit: '5' })
      .reply(
        200,
        '[{"id":9007199254740993,"name":"Rex","categoryId":1,"status":"sold"}]',
        JSON_HEADERS,
      );
    const pets = await client().instance.listPets({ status: 'sold', limit: 5 });
    expect(pets).toEqual([{ id: 9007199254740993n, name: 'Rex', categoryId: 1, status: 'sold' }]);
  });

  it('turns a 401 Error body into an ApiError with the service message', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .reply(401, { code: 'unauthorized', message: 'API key invalid', status: 401 }, JSON_HEADERS);
    const error = await client()
      .instance.listPets()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 401, code: 'unauthorized', message: 'API key invalid' });
  });

  it('retries 503 twice, then returns the list', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .times(2)
      .reply(503, { code: 'busy', message: 'busy', status: 503 });
    nock(ORIGIN).get('/v1/pets').reply(200, [], JSON_HEADERS);
    const { instance, delays } = client();
    await expect(instance.listPets()).resolves.toEqual([]);
    expect(delays).toEqual([375, 750]);
  });

  it('gives up after --retries and reports the last status', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .times(3)
      .reply(502, '<html>Bad gateway</html>', { 'content-type': 'text/html' });
    const error = await client()
      .instance.listPets()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBe(502);
    expect((error as ApiError).message).toContain('<html>Bad gateway</html>');
  });

  it('does not retry with retries 0', async () => {
    nock(ORIGIN).get('/v1/pets').reply(503, { code: 'busy', message: 'busy', status: 503 });
    const { instance, delays } = client({ retries: 0 });
    await expect(instance.listPets()).rejects.toMatchObject({ status: 503 });
    expect(delays).toEqual([]);
  });

  it('honours Retry-After in seconds and as an HTTP date', async () => {
    nock(ORIGIN).get('/v1/pets').reply(429, '', { 'retry-after': '3' });
    nock(ORIGIN).get('/v1/pets').reply(503, '', { 'retry-after': 'Sun, 22 Nov 2026 00:00:07 GMT' });
    nock(ORIGIN).get('/v1/pets').reply(200, [], JSON_HEADERS);
    const { instance, delays } = client();
    await instance.listPets();
    expect(delays).toEqual([3000, 7000]);
  });

  it('stops, to be run later, when Retry-After asks for more than the run may wait', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .reply(
        429,
        { code: 'rate_limited', message: 'slow down', status: 429 },
        { 'retry-after': '3600' },
      );
    const { instance, delays } = client();
    const refused = instance.listPets();
    await expect(refused).rejects.toBeInstanceOf(TryLaterError);
    await expect(refused).rejects.toMatchObject({
      status: 429,
      code: 'try_later',
      retryAt: Date.parse('2026-11-22T01:00:00Z'),
      message: expect.stringContaining('try again after 2026-11-22T01:00:00Z') as string,
    });
    expect(delays).toEqual([]);
  });

  it.each([
    // Within what it may wait, in all: waited, then answered.
    [{ maxWaitMs: 5_000 }, ['2', '2'], 'answered', [2000, 2000]],
    // Past it in all (2 s + 2 s > 3 s): the second wait is not begun.
    [{ maxWaitMs: 3_000 }, ['2', '2'], 'try_later', [2000]],
    // No wait allowed at all.
    [{ maxWaitMs: 0 }, ['1'], 'try_later', []],
    // An HTTP date is a wait too.
    [{ maxWaitMs: 1_000 }, ['Sun, 22 Nov 2026 00:00:30 GMT'], 'try_later', []],
  ] as const)('%j with Retry-After %j: %s', async (settings, waits, end, slept) => {
    const scope = nock(ORIGIN);
    for (const wait of waits) {
      scope.get('/v1/pets').reply(
        429,
        { code: 'rate_limited', message: 'slow', status: 429 },
        {
          'retry-after': wait,
        },
      );
    }
    if (end === 'answered') scope.get('/v1/pets').reply(200, []);
    const { instance, delays } = client({ ...settings, retries: 3 });
    if (end === 'answered') await expect(instance.listPets()).resolves.toEqual([]);
    else await expect(instance.listPets()).rejects.toBeInstanceOf(TryLaterError);
    expect(delays).toEqual(slept);
    nock.cleanAll();
  });

  it.each([
    ['HTML', '<html>hi</html>', 'text/html', /got text\/html/],
    ['malformed JSON', '[{"id":1,', 'application/json', /not valid JSON/],
    ['an empty body', '', 'application/json', /not valid JSON: an empty body/],
    ['the wrong shape', '{"pets":[]}', 'application/json', /not a list of pets: expected an array/],
    [
      'a pet without a name',
      '[{"id":1,"categoryId":2}]',
      'application/json',
      /\$\[0\]\.name is missing/,
    ],
    [
      'a fractional id',
      '[{"id":1.5,"name":"x","categoryId":2}]',
      'application/json',
      /\$\[0\]\.id is not an int64: the number 1.5/,
    ],
  ])('rejects a 200 with %s as a ProtocolError', async (_label, body, type, message) => {
    nock(ORIGIN).get('/v1/pets').reply(200, body, { 'content-type': type });
    const error = await client()
      .instance.listPets()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toMatch(message);
  });

  it('never follows a redirect to another origin, so the key stays home', async () => {
    nock(ORIGIN).get('/v1/pets').reply(302, '', { location: 'https://evil.test/v1/pets' });
    const error = await client()
      .instance.listPets()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as Error).message).toContain('another origin (https://evil.test)');
  });

  it('a redirect to a Location that is not a URL is the service’s error, for reads and writes', async () => {
    for (const location of [
      'http://[::1',
      'http://a b/',
      'http://:0/',
      'http://127.0.0.1:99999/v1',
    ]) {
      nock(ORIGIN).get('/v1/pets').reply(302, '', { location });
      const read = await client()
        .instance.listPets()
        .catch((e: unknown) => e);
      expect(read, location).toBeInstanceOf(ProtocolError);
      expect((read as Error).message).toContain('which is not a URL');
      nock(ORIGIN).post('/v1/pets').reply(307, '', { location });
      const write = await client()
        .instance.createPet({ name: 'Rex', categoryId: 1 })
        .catch((e: unknown) => e);
      expect(write, location).toBeInstanceOf(ApiError);
      expect((write as ApiError).status).toBe(307);
      expect((write as Error).message).toContain('does not send a write again elsewhere');
    }
  });

  it('a write answered 303 See Other was carried out: its result is read where it points', async () => {
    nock(ORIGIN).post('/v1/pets').reply(303, '', { location: '/v1/pets/42' });
    nock(ORIGIN, { badheaders: ['idempotency-key', 'content-type'] })
      .get('/v1/pets/42')
      .reply(200, '{"id":42,"name":"Rex","categoryId":1}', JSON_HEADERS);
    await expect(
      client().instance.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k-303' }),
    ).resolves.toEqual({ id: 42, name: 'Rex', categoryId: 1 });
    // To another origin: carried out, but where its result is the key does not go.
    nock(ORIGIN).post('/v1/pets').reply(303, '', { location: 'https://elsewhere.test/p/42' });
    const error = await client()
      .instance.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k-303b' })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'k-303b' });
  });

  it('follows a same-origin redirect for GET', async () => {
    nock(ORIGIN).get('/v1/pets').reply(301, '', { location: '/v1/animals' });
    nock(ORIGIN, { reqheaders: { authorization: `Bearer ${KEY}` } })
      .get('/v1/animals')
      .reply(200, [], JSON_HEADERS);
    await expect(client().instance.listPets()).resolves.toEqual([]);
  });

  it('follows 5 redirects, then stops and says so rather than "not followed"', async () => {
    for (let hop = 0; hop <= 5; hop++) {
      nock(ORIGIN)
        .get(hop === 0 ? '/v1/pets' : `/v1/r${hop}`)
        .reply(302, '', { location: `/v1/r${hop + 1}` });
    }
    const error = await client()
      .instance.listPets()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toBe(
      'the service redirected GET /v1/pets 5 times and then again (to /v1/r6); petstore stops there',
    );
  });

  it('tells valid but deeply nested JSON from malformed JSON', async () => {
    const deep = `[${'['.repeat(5000)}${']'.repeat(5000)}]`;
    nock(ORIGIN).get('/v1/pets').reply(200, deep, JSON_HEADERS);
    const error = await client()
      .instance.listPets()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ProtocolError);
    expect((error as ProtocolError).message).toBe(
      'the HTTP 200 response is not a list of pets: valid JSON, but nested more than 1000 levels deep',
    );
  });

  it('masks an echoed key before an excerpt is cut, so not even its start is shown', async () => {
    // The key straddles the excerpt's end (120 characters): cut first, its start would remain.
    const body = `<html>${'x'.repeat(108)}${KEY.toUpperCase()}</html>`;
    nock(ORIGIN).get('/v1/pets').reply(502, body, { 'content-type': 'text/html' });
    const error = (await client({ retries: 0 })
      .instance.listPets()
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toContain('x****');
    expect(error.message).not.toMatch(/sk_test/i);
  });

  it('masks the key in the values and headers a service sends, however it spells it', async () => {
    const escaped = Array.from(KEY, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    nock(ORIGIN)
      .get('/v1/pets')
      .reply(200, `[{"id":1,"name":"pet ${escaped.join('')}","categoryId":1}]`, {
        ...JSON_HEADERS,
        'x-request-id': `req-${KEY}`,
      });
    const { instance, log } = client();
    const [pet] = await instance.listPets();
    expect(pet?.name).toBe('pet ****1234');
    expect(log.join('\n')).toContain('x-request-id: req-****1234');
    expect(log.join('\n')).not.toContain(KEY);
  });

  it('masks a key an Error body spells with \\u escapes, in the error it becomes', async () => {
    const escaped = Array.from(KEY, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    nock(ORIGIN)
      .post('/v1/pets')
      .reply(400, `{"code":"bad","message":"key ${escaped.join('')} rejected"}`, JSON_HEADERS);
    const error = (await client()
      .instance.createPet({ name: 'Rex', categoryId: 1 })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 400, message: 'key ****1234 rejected' });
  });

  it('logs exchanges with the key redacted', async () => {
    nock(ORIGIN).get('/v1/pets').reply(200, [], JSON_HEADERS);
    const { instance, log } = client();
    await instance.listPets();
    const text = log.join('\n');
    expect(text).toContain('> GET http://api.petstore.test/v1/pets');
    expect(text).toContain('authorization: Bearer ****');
    expect(text).toMatch(/< 200 GET .* \(\d+ ms\)/);
    expect(text).not.toContain(KEY);
  });
});

describe('network faults (real sockets on 127.0.0.1)', () => {
  beforeAll(() => nock.enableNetConnect('127.0.0.1'));
  afterAll(() => nock.disableNetConnect());

  it('reports a service that never answers as a timeout, after retrying GET', async () => {
    const server = await startTestServer(() => {
      /* never answers */
    });
    const { instance } = client({ baseUrl: `${server.url}/v1`, timeoutSeconds: 0.3, retries: 1 });
    try {
      const error = await instance.listPets().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).code).toBe('UND_ERR_HEADERS_TIMEOUT');
      expect(commandLineHint((error as NetworkError).hint)).toContain('--timeout');
      expect(server.requests).toHaveLength(2);
    } finally {
      await instance.close();
      await server.close();
    }
  });

  it("keeps each client's own timeout while they share the process's connections", async () => {
    const server = await startTestServer((req, res) => {
      if (req.url.includes('limit=1')) sendJson(res, 200, '[]');
      // Anything else is never answered.
    });
    const patient = client({ baseUrl: `${server.url}/v1`, timeoutSeconds: 30, retries: 0 });
    const hasty = client({ baseUrl: `${server.url}/v1`, timeoutSeconds: 0.2, retries: 0 });
    try {
      await expect(patient.instance.listPets({ limit: 1 })).resolves.toEqual([]);
      // Its own 0.2 s, not the other's 30 s (which would outlast this test's time).
      const error = await hasty.instance.listPets().catch((e: unknown) => e);
      expect((error as NetworkError).code).toBe('UND_ERR_HEADERS_TIMEOUT');
    } finally {
      await patient.instance.close();
      await hasty.instance.close();
      await server.close();
    }
  });

  it('never retries a POST that got no answer, and says its outcome is unknown', async () => {
    const server = await startTestServer(() => {
      /* receives the pet, never answers */
    });
    const { instance } = client({ baseUrl: `${server.url}/v1`, timeoutSeconds: 0.3 });
    try {
      const error = await instance
        .createPet({ name: 'Rex', categoryId: 1 })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).outcomeUnknown).toBe(true);
      expect((error as NetworkError).message).toMatch(
        /^no answer to POST \/v1\/pets from 127\.0\.0\.1:\d+ \(timed out waiting for the response\): the outcome is unknown, the pet may or may not have been created \(Idempotency-Key [0-9a-f-]{36}\)$/,
      );
      const key = /Idempotency-Key (\S+)\)$/.exec((error as NetworkError).message)![1]!;
      expect(server.requests[0]!.headers['idempotency-key']).toBe(key);
      expect(commandLineHint((error as NetworkError).hint)).toContain(`--idempotency-key ${key}`);
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('sends a POST with no answer again, same key, only when asked (resendWhenUnknown)', async () => {
    let calls = 0;
    const server = await startTestServer((_req, res) => {
      // The first send is dropped after it arrives; the second is answered.
      if (++calls === 1) res.socket?.destroy();
      else sendJson(res, 201, '{"id":1,"name":"Rex","categoryId":1}');
    });
    const { instance, delays } = client({ baseUrl: `${server.url}/v1` });
    try {
      const pet = await instance.createPet(
        { name: 'Rex', categoryId: 1 },
        { idempotencyKey: 'k-resend', resendWhenUnknown: true },
      );
      expect(pet).toEqual({ id: 1, name: 'Rex', categoryId: 1 });
      expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual([
        'k-resend',
        'k-resend',
      ]);
      expect(delays).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('sends a POST answered 429 again with the same key, after Retry-After', async () => {
    let calls = 0;
    const replayed: boolean[] = [];
    const server = await startTestServer((_req, res) => {
      if (++calls === 1) {
        sendJson(res, 429, '{"code":"rate_limited","message":"slow down","status":429}', {
          'retry-after': '2',
        });
      } else {
        sendJson(res, 201, '{"id":1,"name":"Rex","categoryId":1}', {
          'idempotent-replayed': 'true',
        });
      }
    });
    const { instance, delays } = client({ baseUrl: `${server.url}/v1` });
    try {
      await instance.createPet(
        { name: 'Rex', categoryId: 1 },
        { idempotencyKey: 'k-429', onReplayed: () => replayed.push(true) },
      );
      expect(server.requests.map((r) => r.headers['idempotency-key'])).toEqual(['k-429', 'k-429']);
      expect(delays).toEqual([2000]);
      expect(replayed).toEqual([true]);
    } finally {
      await server.close();
    }
  });

  it.each([
    [500, '{"code":"internal","message":"boom","status":500}', 'application/json', ApiError],
    [201, '{"id":1,"na', 'application/json', ProtocolError],
    [201, '<html>ok</html>', 'text/html', ProtocolError],
    [201, '{"created":true}', 'application/json', ProtocolError],
  ])(
    'a write answered %i with %s may have been done: its error says so, with its key',
    async (status, body, type, kind) => {
      nock(ORIGIN).post('/v1/pets').reply(status, body, { 'content-type': type });
      const error = (await client()
        .instance.createPet({ name: 'Rex', categoryId: 1 }, { idempotencyKey: 'k-maybe' })
        .catch((e: unknown) => e)) as ApiError;
      expect(error).toBeInstanceOf(kind);
      expect(error).toMatchObject({ outcomeUnknown: true, idempotencyKey: 'k-maybe' });
      expect(commandLineHint(error.hint)).toContain('the pet may or may not have been created');
      expect(commandLineHint(error.hint)).toContain('--idempotency-key k-maybe');
    },
  );

  it('a write refused with 4xx did nothing, and is not called unknown', async () => {
    nock(ORIGIN)
      .post('/v1/pets')
      .reply(409, '{"code":"conflict","message":"exists","status":409}', JSON_HEADERS);
    const error = (await client()
      .instance.createPet({ name: 'Rex', categoryId: 1 })
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 409, outcomeUnknown: false });
  });

  it('sends a write answered 5xx again, same key, only when asked (resendWhenUnknown)', async () => {
    nock(ORIGIN)
      .post('/v1/pets')
      .matchHeader('idempotency-key', 'k-5xx')
      .reply(502, '{"code":"bad_gateway","message":"down","status":502}', JSON_HEADERS)
      .post('/v1/pets')
      .matchHeader('idempotency-key', 'k-5xx')
      .reply(201, '{"id":3,"name":"Rex","categoryId":1}', JSON_HEADERS);
    const pet = await client().instance.createPet(
      { name: 'Rex', categoryId: 1 },
      { idempotencyKey: 'k-5xx', resendWhenUnknown: true },
    );
    expect(pet.id).toBe(3);
  });

  it('never sends a POST answered 503 again: the service may have acted', async () => {
    const server = await startTestServer((_req, res) =>
      sendJson(res, 503, '{"code":"unavailable","message":"down","status":503}'),
    );
    const { instance } = client({ baseUrl: `${server.url}/v1` });
    try {
      await expect(instance.createPet({ name: 'Rex', categoryId: 1 })).rejects.toBeInstanceOf(
        ApiError,
      );
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it.each([
    ['declared in Content-Length', 'declared'],
    ['streamed without a length', 'streamed'],
  ])('refuses a response over the size cap (%s) without fetching it again', async (_, how) => {
    const server = await startTestServer((_req, res) => {
      if (how === 'declared') {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': 40 << 20 });
        res.write('[');
        return;
      }
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(`[${' '.repeat(33 << 20)}]`);
    });
    const { instance, delays } = client({ baseUrl: `${server.url}/v1` });
    try {
      const error = await instance.listPets().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ProtocolError);
      expect((error as ProtocolError).message).toContain('is larger than 32 MiB');
      expect(server.requests).toHaveLength(1);
      expect(delays).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('ends a body that trickles in within the deadline, and does not retry it', async () => {
    const server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('[');
      // One byte every 200 ms: each pause is within --timeout, the whole never ends.
      const drip = setInterval(() => res.write(' '), 200);
      res.on('close', () => clearInterval(drip));
    });
    const { instance } = client({ baseUrl: `${server.url}/v1`, timeoutSeconds: 0.5 });
    try {
      const error = await instance.listPets().catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect((error as NetworkError).code).toBe('deadline_exceeded');
      expect((error as NetworkError).message).toContain('no complete response within 2s');
      expect(server.requests).toHaveLength(1);
    } finally {
      await server.close();
    }
  });

  it('reads a body sent in pieces that split a character, without a leading BOM', async () => {
    const body = Buffer.from('\uFEFF[{"id":1,"name":"Schnüffel 🐕","categoryId":1}]');
    const dog = body.indexOf(Buffer.from('🐕'));
    const server = await startTestServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      // Three writes, the second ending inside the four bytes of the emoji.
      res.write(body.subarray(0, 2));
      setTimeout(() => res.write(body.subarray(2, dog + 2)), 20);
      setTimeout(() => res.end(body.subarray(dog + 2)), 40);
    });
    const { instance } = client({ baseUrl: `${server.url}/v1` });
    try {
      const pets = await instance.listPets();
      expect(pets.map((pet) => pet.name)).toEqual(['Schnüffel 🐕']);
    } finally {
      await server.close();
    }
  });

  it('retries a reset connection, then returns the list', async () => {
    let calls = 0;
    const server = await startTestServer((_req, res) => {
      calls++;
      if (calls === 1) res.socket?.destroy();
      else sendJson(res, 200, '[]');
    });
    const { instance } = client({ baseUrl: `${server.url}/v1` });
    try {
      await expect(instance.listPets()).resolves.toEqual([]);
      expect(calls).toBe(2);
    } finally {
      await instance.close();
      await server.close();
    }
  });

  it('reports a refused connection as a NetworkError naming the host', async () => {
    const server = await startTestServer(() => undefined);
    await server.close();
    const { instance, delays } = client({ baseUrl: `${server.url}/v1` });
    const error = await instance.listPets().catch((e: unknown) => e);
    await instance.close();
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('ECONNREFUSED');
    expect((error as NetworkError).message).toBe(
      `cannot reach ${new URL(server.url).host}: connection refused`,
    );
    expect(delays).toHaveLength(2);
  });
});

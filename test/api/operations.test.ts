import nock from 'nock';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { commandLineHint } from '../../src/output/wording.js';
import { ApiError, NetworkError, UsageError } from '../../src/core/errors.js';
import { sendJson, startTestServer } from '../helpers/test-server.js';
import { useNockGuard } from '../helpers/nock-guard.js';
import { useTestClients } from '../helpers/test-client.js';

const ORIGIN = 'http://api.petstore.test';
const QUICKSTART = 'http://quickstart.petstore.test';
const KEY = 'sk_test_OPERATIONS_42';
const JSON_HEADERS = { 'content-type': 'application/json' };

const client = useTestClients({
  baseUrl: `${ORIGIN}/v1/`,
  quickstartUrl: `${QUICKSTART}/qs`,
  apiKey: KEY,
});

useNockGuard();

describe('createPet', () => {
  it('sends a NewPet as JSON and returns the 201 Pet with exact int64s', async () => {
    let sentBody = '';
    nock(ORIGIN, {
      reqheaders: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    })
      .post('/v1/pets', (body: unknown) => {
        sentBody = JSON.stringify(body);
        return true;
      })
      .reply(
        201,
        '{"id":9007199254740993,"name":"Rex","categoryId":9223372036854775807,"status":"available"}',
        JSON_HEADERS,
      );
    const pet = await client().instance.createPet({
      name: 'Rex',
      categoryId: 9223372036854775807n,
      status: 'available',
    });
    expect(pet).toEqual({
      id: 9007199254740993n,
      name: 'Rex',
      categoryId: 9223372036854775807n,
      status: 'available',
    });
    expect(sentBody).toContain('"name":"Rex"');
  });

  it('turns a 400 Error body into an ApiError with its message', async () => {
    nock(ORIGIN)
      .post('/v1/pets')
      .reply(400, { code: 'invalid_body', message: 'name is required', status: 400 }, JSON_HEADERS);
    await expect(client().instance.createPet({ name: 'x', categoryId: 1 })).rejects.toMatchObject({
      status: 400,
      code: 'invalid_body',
      message: 'name is required',
    });
  });

  it('never retries a POST answered 503, and surfaces its Error body', async () => {
    const scope = nock(ORIGIN)
      .post('/v1/pets')
      .reply(503, { code: 'unavailable', message: 'try later', status: 503 }, JSON_HEADERS);
    const error = await client()
      .instance.createPet({ name: 'x', categoryId: 1 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 503, code: 'unavailable', message: 'try later' });
    expect(scope.isDone()).toBe(true);
  });
});

describe('getPet', () => {
  it('puts the int64 id in the path digit for digit', async () => {
    nock(ORIGIN)
      .get('/v1/pets/9223372036854775807')
      .reply(200, '{"id":9223372036854775807,"name":"Max","categoryId":1}', JSON_HEADERS);
    const pet = await client().instance.getPet(9223372036854775807n);
    expect(pet.id).toBe(9223372036854775807n);
  });

  it('turns 404 into an ApiError with a hint', async () => {
    nock(ORIGIN)
      .get('/v1/pets/7')
      .reply(404, { code: 'not_found', message: 'pet 7 not found', status: 404 }, JSON_HEADERS);
    const error = (await client()
      .instance.getPet(7)
      .catch((e: unknown) => e)) as ApiError;
    expect(error).toMatchObject({ status: 404, code: 'not_found' });
    expect(commandLineHint(error.hint)).toContain('petstore pets list');
  });

  it('reports Deprecation and Sunset headers', async () => {
    nock(ORIGIN)
      .get('/v1/pets/1')
      .reply(200, '{"id":1,"name":"a","categoryId":1}', {
        ...JSON_HEADERS,
        deprecation: 'true',
        sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      });
    const { instance, notices } = client();
    await instance.getPet(1);
    expect(notices).toEqual([
      {
        method: 'GET',
        path: '/v1/pets/1',
        deprecation: 'true',
        sunset: 'Thu, 05 Dec 2030 00:00:00 GMT',
      },
    ]);
  });
});

describe('sendMessage', () => {
  it('posts {message} to the quickstart base and returns the receipt', async () => {
    nock(QUICKSTART, {
      reqheaders: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
    })
      .post('/qs/messages', { message: 'hello' })
      .reply(
        200,
        { id: 'msg_1', message: 'hello', status: 'queued', createdAt: '2026-11-22T10:00:00Z' },
        JSON_HEADERS,
      );
    await expect(client().instance.sendMessage('hello')).resolves.toMatchObject({
      id: 'msg_1',
      status: 'queued',
    });
  });

  it('needs a quickstart URL, naming the command that sets one', async () => {
    const error = await client({ quickstartUrl: undefined })
      .instance.sendMessage('x')
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UsageError);
    expect(commandLineHint((error as UsageError).hint)).toContain(
      'petstore profile set test --quickstart-url',
    );
  });
});

describe('POST and the network (real sockets)', () => {
  beforeAll(() => nock.enableNetConnect('127.0.0.1'));
  afterAll(() => nock.disableNetConnect());

  it('writes int64 values into the request body digit for digit', async () => {
    const server = await startTestServer((_req, res) => {
      sendJson(res, 201, '{"id":1,"name":"Rex","categoryId":-9223372036854775808}');
    });
    const { instance } = client({ baseUrl: `${server.url}/v1` });
    try {
      await instance.createPet({ name: 'Rex', categoryId: -9223372036854775808n });
      expect(server.requests[0]!.body).toBe('{"name":"Rex","categoryId":-9223372036854775808}');
    } finally {
      await instance.close();
      await server.close();
    }
  });

  it('does not retry a POST whose connection was reset after sending', async () => {
    const server = await startTestServer((_req, res) => res.socket?.destroy());
    const { instance } = client({ baseUrl: `${server.url}/v1` });
    try {
      const error = await instance.createPet({ name: 'x', categoryId: 1 }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(NetworkError);
      expect(server.requests).toHaveLength(1);
    } finally {
      await instance.close();
      await server.close();
    }
  });

  it('answers 503 then 200 to GET with the list, and POST with one request and the 503', async () => {
    let gets = 0;
    const server = await startTestServer((req, res) => {
      if (req.method === 'GET' && ++gets > 2) {
        sendJson(res, 200, '[]');
        return;
      }
      sendJson(res, 503, '{"code":"unavailable","message":"down","status":503}');
    });
    const { instance } = client({ baseUrl: `${server.url}/v1` });
    try {
      await expect(instance.listPets()).resolves.toEqual([]);
      await expect(instance.createPet({ name: 'x', categoryId: 1 })).rejects.toMatchObject({
        status: 503,
      });
      expect(server.requests.filter((r) => r.method === 'POST')).toHaveLength(1);
    } finally {
      await instance.close();
      await server.close();
    }
  });
});

describe('connection reuse (real sockets)', () => {
  beforeAll(() => nock.enableNetConnect('127.0.0.1'));
  afterAll(() => nock.disableNetConnect());

  it('shares one keep-alive connection between clients, and closes it with the last one', async () => {
    const server = await startTestServer((_req, res) => sendJson(res, 200, '[]'));
    try {
      const first = client({ baseUrl: `${server.url}/v1` }).instance;
      const second = client({ baseUrl: `${server.url}/v1` }).instance;
      await first.listPets();
      // The connection returns to the pool just after the response is read.
      await new Promise((resolve) => setImmediate(resolve));
      await second.listPets();
      const [a, b] = server.requests.map((request) => request.remotePort);
      expect(b).toBe(a);
      await first.close();
      await second.close();
      await client({ baseUrl: `${server.url}/v1` }).instance.listPets();
      expect(server.requests[2]!.remotePort).not.toBe(a);
    } finally {
      await server.close();
    }
  });
});

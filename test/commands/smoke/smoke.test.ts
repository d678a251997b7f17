import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { startSandboxServer } from '../../../src/sandbox/server.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { freshHome } from '../../helpers/run-cli.js';
import { sendJson, startTestServer, type RecordedRequest } from '../../helpers/test-server.js';
import { waitUntil } from '../../helpers/wait-until.js';

const KEY = 'sk_test_good_key';
const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

interface Row {
  target: string;
  baseUrl: string;
  name: string;
  outcome: string;
  detail: string;
}

async function smoke(baseUrl: string, args: string[], quickstartUrl?: string) {
  const io = fakeIO();
  const env: Record<string, string> = {
    HOME: freshHome(),
    PETSTORE_BASE_URL: baseUrl,
    PETSTORE_API_KEY: KEY,
  };
  if (quickstartUrl) env.PETSTORE_QUICKSTART_URL = quickstartUrl;
  const code = await main(['smoke', '-o', 'json', ...args], io, env);
  return { code, out: io.out(), err: io.err(), io };
}

const rowsOf = (out: string) => JSON.parse(out) as Row[];

/** An answer as it goes back to the client, which a test may change. */
interface Answer {
  status: number;
  headers: Record<string, string | undefined>;
  text: string;
  /** Sent instead of the text, when set: bytes no string holds (invalid UTF-8). */
  bytes?: Buffer;
}

/**
 * The sandbox (two pets in it, one available), behind a server that passes every request on
 * and lets `change` break one rule of the interface in what comes back.
 */
async function service(
  change: (request: RecordedRequest, answer: Answer) => Answer = (_r, a) => a,
) {
  const sandbox = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    database: ':memory:',
    apiKeys: [KEY],
  });
  stops.push(sandbox.close);
  for (const pet of [
    { name: 'Rex', categoryId: 1, status: 'available' },
    { name: 'Tom', categoryId: 2, status: 'sold' },
  ]) {
    await fetch(`${sandbox.apiBaseUrl}/pets`, {
      method: 'POST',
      headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify(pet),
    });
  }
  const origin = new URL(sandbox.apiBaseUrl).origin;
  const server = await startTestServer((request, response) => {
    void (async () => {
      const headers: Record<string, string> = {};
      for (const name of ['authorization', 'content-type', 'idempotency-key']) {
        const value = request.headers[name];
        if (typeof value === 'string') headers[name] = value;
      }
      const upstream = await fetch(`${origin}${request.url}`, {
        method: request.method,
        headers,
        body: request.method === 'POST' ? request.body : undefined,
      });
      const answer = change(request, {
        status: upstream.status,
        headers: Object.fromEntries(
          ['content-type', 'deprecation', 'sunset', 'link'].map((name) => [
            name,
            upstream.headers.get(name) ?? undefined,
          ]),
        ),
        text: await upstream.text(),
      });
      const sent = Object.fromEntries(
        Object.entries(answer.headers).filter((entry): entry is [string, string] => !!entry[1]),
      );
      response.writeHead(answer.status, sent);
      response.end(answer.bytes ?? answer.text);
      // The sandbox stopped with a request still on its way (a test over): no answer, no error.
    })().catch(() => response.destroy());
  });
  stops.push(server.close);
  return { base: `${server.url}/v1`, quickstart: `${server.url}/quickstart`, server };
}

const isList = (request: RecordedRequest, query: string) =>
  request.method === 'GET' && request.url === `/v1/pets?${query}`;

describe('petstore smoke against a service that follows the interface', () => {
  it('passes every check, reads and writes, and writes the JUnit report', async () => {
    const { base, quickstart } = await service();
    const junit = join(mkdtempSync(join(tmpdir(), 'smoke-')), 'smoke.xml');
    const result = await smoke(base, ['--allow-writes', '--junit', junit], quickstart);
    expect(result.code, result.err).toBe(0);
    const rows = rowsOf(result.out);
    expect(rows.filter((row) => row.outcome === 'fail')).toEqual([]);
    expect(rows.filter((row) => row.outcome === 'skip')).toEqual([]);
    expect(rows.filter((row) => row.outcome === 'info').map((row) => row.name)).toEqual([
      'not shown: limit 0',
      'not shown: limit 101',
      'not shown: unknown status',
    ]);
    expect(rows[0]).toMatchObject({ target: base, baseUrl: base });
    expect(result.err).toContain('smoke: 11 passed, 0 failed, 0 skipped, 3 info');
    expect(readFileSync(junit, 'utf8')).toContain('tests="14" failures="0" skipped="0"');
    // The deprecation notice its own check asked for is that check's result, not a warning.
    expect(rows.find((row) => row.name === 'deprecated get: notice and sunset')).toMatchObject({
      outcome: 'pass',
    });
    expect(result.err).not.toContain('warning:');
  });

  it("a key the service refuses is the key's failure (exit 3), not the service's (exit 8)", async () => {
    const { base } = await service();
    const io = fakeIO();
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: base,
      PETSTORE_API_KEY: 'sk_test_not_known',
    };
    const code = await main(['smoke', '-o', 'json'], io, env);
    expect(code).toBe(3);
    const error = JSON.parse(io.err().trimEnd().split('\n').at(-1)!) as Record<string, unknown>;
    expect(error).toMatchObject({ code: 'unauthorized', status: 401 });
    expect(error.message).toMatch(
      /refused the API key .*\(401\), so the checks could not judge it/,
    );
    expect(error.hint).toContain('petstore auth status');
    // The table still says what each check saw.
    expect(rowsOf(io.out()).some((row) => row.outcome === 'fail')).toBe(true);
  });

  it('only reads without --allow-writes', async () => {
    const { base, server } = await service();
    const result = await smoke(base, []);
    expect(result.code, result.err).toBe(0);
    expect(rowsOf(result.out).filter((row) => row.outcome === 'skip')).toHaveLength(4);
    expect(server.requests.every((request) => request.method === 'GET')).toBe(true);
  });
});

/** One rule of the interface broken at a time, and the check that must say so. */
const BROKEN: {
  rule: string;
  check: string;
  says: string | RegExp;
  args?: string[];
  change: (request: RecordedRequest, answer: Answer) => Answer;
}[] = [
  {
    rule: 'a pet without categoryId',
    check: 'list pets, limit 1',
    says: '$[0].categoryId is missing',
    change: (request, answer) =>
      isList(request, 'limit=1') ? { ...answer, text: '[{"id":1,"name":"Rex"}]' } : answer,
  },
  {
    rule: 'an id sent as a string',
    check: 'list pets, limit 100',
    says: '$[1].id is not an int64: the string "2"',
    change: (request, answer) =>
      isList(request, 'limit=100')
        ? { ...answer, text: answer.text.replace('"id":2', '"id":"2"') }
        : answer,
  },
  {
    rule: 'an int64 past 2^53 rounded through a double',
    check: 'add a pet, int64 exact',
    says: '$.categoryId came back as 9007199254740992, sent 9007199254740993',
    args: ['--allow-writes'],
    change: (request, answer) =>
      request.method === 'POST' && request.url === '/v1/pets' && answer.status === 201
        ? { ...answer, text: answer.text.replace('9007199254740993', '9007199254740992') }
        : answer,
  },
  {
    rule: 'an Error body whose status is not the HTTP status',
    check: 'refuse an invalid key (401)',
    says: '$.status is 400, not the HTTP status',
    change: (_request, answer) =>
      answer.status === 401
        ? { ...answer, text: answer.text.replace('"status":401', '"status":400') }
        : answer,
  },
  {
    rule: 'a limit=100 page of 101 pets',
    check: 'list pets, limit 100',
    says: 'GET /pets?limit=100 answered 101 pets',
    change: (request, answer) =>
      isList(request, 'limit=100')
        ? {
            ...answer,
            text: JSON.stringify(
              Array.from({ length: 101 }, (_, i) => ({ id: i + 1, name: `p${i}`, categoryId: 1 })),
            ),
          }
        : answer,
  },
  {
    rule: 'a status filter that returns other pets on page 2',
    check: 'status filter, every page',
    says: /\(page 2\): 1 pet\(s\) with another status, e\.g\. id 2 "sold"/,
    change: (request, answer) => {
      if (isList(request, 'status=available&limit=100')) {
        return {
          ...answer,
          headers: {
            ...answer.headers,
            link: '</v1/pets?status=available&limit=100&cursor=p2>; rel="next"',
          },
        };
      }
      if (request.url === '/v1/pets?status=available&limit=100&cursor=p2') {
        return {
          ...answer,
          status: 200,
          text: '[{"id":2,"name":"Tom","categoryId":2,"status":"sold"}]',
        };
      }
      return answer;
    },
  },
  {
    rule: 'a deprecation notice that vanished',
    check: 'deprecated get: notice and sunset',
    says: 'no Deprecation header',
    change: (request, answer) =>
      /^\/v1\/pets\/1$/.test(request.url)
        ? { ...answer, headers: { ...answer.headers, deprecation: undefined } }
        : answer,
  },
  {
    rule: 'a sunset moved',
    check: 'deprecated get: notice and sunset',
    says: 'Sunset says Mon, 05 Dec 2033 00:00:00 GMT, the interface 2030-12-05',
    change: (request, answer) =>
      /^\/v1\/pets\/1$/.test(request.url)
        ? { ...answer, headers: { ...answer.headers, sunset: 'Mon, 05 Dec 2033 00:00:00 GMT' } }
        : answer,
  },
  {
    rule: 'a status outside the enumeration',
    check: 'list pets, limit 100',
    says: '$[0].status is the string "AVAILABLE", not one of available, pending, sold',
    change: (request, answer) =>
      isList(request, 'limit=100')
        ? { ...answer, text: answer.text.replace('"available"', '"AVAILABLE"') }
        : answer,
  },
  {
    rule: 'JSON sent as text/plain',
    check: 'list pets, limit 1',
    says: "the 200 answer's content type is text/plain, not application/json",
    change: (request, answer) =>
      isList(request, 'limit=1')
        ? { ...answer, headers: { ...answer.headers, 'content-type': 'text/plain' } }
        : answer,
  },
  {
    rule: 'a next page on another origin (the key must not follow)',
    check: 'status filter, every page',
    says: 'goes to another origin (http://127.0.0.1:1)',
    change: (request, answer) =>
      isList(request, 'status=available&limit=100')
        ? {
            ...answer,
            headers: { ...answer.headers, link: '<http://127.0.0.1:1/v1/pets?p=2>; rel="next"' },
          }
        : answer,
  },
  {
    rule: 'pages that link back to the first',
    check: 'status filter, every page',
    says: "the service's pages do not end",
    change: (request, answer) =>
      request.url.startsWith('/v1/pets?status=available&limit=100')
        ? {
            ...answer,
            status: 200,
            text: request.url.includes('cursor') ? '[]' : answer.text,
            headers: {
              ...answer.headers,
              link: request.url.includes('cursor')
                ? '</v1/pets?status=available&limit=100>; rel="next"'
                : '</v1/pets?status=available&limit=100&cursor=p2>; rel="next"',
            },
          }
        : answer,
  },
  {
    rule: 'a page past the limit on page 2',
    check: 'status filter, every page',
    says: '(page 2): 150 pets, over limit=100',
    change: (request, answer) => {
      if (isList(request, 'status=available&limit=100')) {
        const link = '</v1/pets?status=available&limit=100&cursor=p2>; rel="next"';
        return { ...answer, headers: { ...answer.headers, link } };
      }
      if (request.url.endsWith('cursor=p2')) {
        const pets = Array.from({ length: 150 }, (_, i) => ({
          id: i + 10,
          name: `p${i}`,
          categoryId: 1,
          status: 'available',
        }));
        return { ...answer, status: 200, text: JSON.stringify(pets) };
      }
      return answer;
    },
  },
  {
    rule: 'an unknown pet answered 200 with something else',
    check: 'get an unknown pet (404)',
    says: 'the answer is not a pet',
    change: (request, answer) =>
      request.url === '/v1/pets/9223372036854775807'
        ? { ...answer, status: 200, text: '{"foo":"bar"}' }
        : answer,
  },
  {
    rule: 'an unknown pet answered 200 with another pet',
    check: 'get an unknown pet (404)',
    says: 'answered 200 with the pet of id 1',
    change: (request, answer) =>
      request.url === '/v1/pets/9223372036854775807'
        ? { ...answer, status: 200, text: '{"id":1,"name":"Rex","categoryId":1}' }
        : answer,
  },
  {
    rule: 'a request without any key answered',
    check: 'refuse a request without a key (401)',
    says: 'answered 200, not 401',
    change: (request, answer) =>
      request.headers.authorization === undefined && isList(request, 'limit=1')
        ? { ...answer, status: 200, text: '[]' }
        : answer,
  },
  {
    rule: 'a request the interface leaves open answered 200 with no list of pets',
    check: 'not shown: limit 0',
    says: '$[0].id is not an int64',
    change: (request, answer) =>
      isList(request, 'limit=0') ? { ...answer, status: 200, text: '[{"id":"x"}]' } : answer,
  },
  {
    rule: 'a Deprecation header that says nothing (false)',
    check: 'deprecated get: notice and sunset',
    says: 'Deprecation is false, not @seconds, true or an HTTP date',
    change: (request, answer) =>
      /^\/v1\/pets\/1$/.test(request.url)
        ? { ...answer, headers: { ...answer.headers, deprecation: 'false' } }
        : answer,
  },
  {
    rule: 'a Sunset that is no HTTP date',
    check: 'deprecated get: notice and sunset',
    says: 'Sunset is no HTTP date: 2030-12-05',
    change: (request, answer) =>
      /^\/v1\/pets\/1$/.test(request.url)
        ? { ...answer, headers: { ...answer.headers, sunset: '2030-12-05' } }
        : answer,
  },
  {
    rule: 'the deprecated get answering another pet',
    check: 'deprecated get: notice and sunset',
    says: 'GET /pets/1: answered the pet of id 2',
    change: (request, answer) =>
      /^\/v1\/pets\/1$/.test(request.url)
        ? { ...answer, text: answer.text.replace('"id":1', '"id":2') }
        : answer,
  },
  {
    rule: 'no pet listed, and the deprecation notice gone from the unknown pet too',
    check: 'deprecated get: notice and sunset',
    says: 'GET /v1/pets/9223372036854775807: no Deprecation header',
    change: (request, answer) =>
      isList(request, 'limit=1')
        ? { ...answer, text: '[]' }
        : request.url === '/v1/pets/9223372036854775807'
          ? { ...answer, headers: { ...answer.headers, deprecation: undefined } }
          : answer,
  },
  {
    rule: 'a pet created with 200, not 201',
    check: 'add a pet, int64 exact',
    says: 'answered 200, not 201',
    args: ['--allow-writes'],
    change: (request, answer) =>
      request.method === 'POST' && answer.status === 201 ? { ...answer, status: 200 } : answer,
  },
  {
    rule: 'a created pet without the status it was sent',
    check: 'add a pet, int64 exact',
    says: '$.status came back as absent, sent "pending"',
    args: ['--allow-writes'],
    change: (request, answer) =>
      request.method === 'POST' && request.url === '/v1/pets' && answer.status === 201
        ? { ...answer, text: answer.text.replace(/,"status":"pending"/, '') }
        : answer,
  },
  {
    rule: 'JSON in another charset',
    check: 'list pets, limit 1',
    says: 'content type is application/json; charset=iso-8859-1, not application/json (UTF-8)',
    change: (request, answer) =>
      isList(request, 'limit=1')
        ? {
            ...answer,
            headers: { ...answer.headers, 'content-type': 'application/json; charset=iso-8859-1' },
          }
        : answer,
  },
  {
    rule: 'a key given twice in one object (the first value broken)',
    check: 'list pets, limit 1',
    says: 'gives the key "id" twice in one object',
    change: (request, answer) =>
      isList(request, 'limit=1')
        ? { ...answer, text: answer.text.replace('{"id":1,', '{"id":"x","id":1,') }
        : answer,
  },
  {
    rule: 'a body that is not UTF-8',
    check: 'list pets, limit 1',
    says: 'is not valid UTF-8, which JSON must be',
    change: (request, answer) =>
      isList(request, 'limit=1')
        ? {
            ...answer,
            bytes: Buffer.concat([
              Buffer.from('[{"id":1,"name":"R'),
              Buffer.from([0xff]),
              Buffer.from('x","categoryId":1}]'),
            ]),
          }
        : answer,
  },
  {
    rule: 'a plain body said to be gzip',
    check: 'list pets, limit 1',
    says: 'is encoded (Content-Encoding: gzip), which petstore never asks for',
    change: (request, answer) =>
      isList(request, 'limit=1')
        ? { ...answer, headers: { ...answer.headers, 'content-encoding': 'gzip' } }
        : answer,
  },
  {
    rule: 'a message receipt without createdAt',
    check: 'quickstart message',
    says: '$.createdAt is missing',
    args: ['--allow-writes'],
    change: (request, answer) =>
      request.url === '/quickstart/messages'
        ? { ...answer, text: answer.text.replace(/,"createdAt":"[^"]*"/, '') }
        : answer,
  },
];

describe('a deployment that breaks the interface fails the check that covers it (exit 8)', () => {
  it.each(BROKEN)('$rule: "$check" fails', async ({ check, says, args, change }) => {
    const { base, quickstart } = await service(change);
    const result = await smoke(base, args ?? [], quickstart);
    expect(result.code, result.err).toBe(8);
    const failed = rowsOf(result.out).filter((row) => row.outcome === 'fail');
    expect(failed.map((row) => row.name)).toContain(check);
    const detail = failed.find((row) => row.name === check)!.detail;
    if (typeof says === 'string') expect(detail).toContain(says);
    else expect(detail).toMatch(says);
  });

  it('a check slower than --max-latency fails, naming the time', async () => {
    const { base } = await service();
    const slow = await startTestServer((request, response) => {
      setTimeout(
        () => {
          void fetch(`${base.replace('/v1', '')}${request.url}`, {
            headers: { authorization: String(request.headers.authorization) },
          })
            .then(async (upstream) => {
              response.writeHead(upstream.status, { 'content-type': 'application/json' });
              response.end(await upstream.text());
            })
            .catch(() => response.destroy());
        },
        isList(request, 'limit=1') ? 120 : 0,
      );
    });
    stops.push(slow.close);
    const result = await smoke(`${slow.url}/v1`, ['--max-latency', '80']);
    expect(result.code).toBe(8);
    const row = rowsOf(result.out).find((r) => r.name === 'list pets, limit 1')!;
    expect(row.outcome).toBe('fail');
    expect(row.detail).toMatch(/^took \d+ ms, over the 80 ms allowed/);
  });
});

describe('a signal during a one-shot run', () => {
  it('ends a read in flight at once, prints what ran, and exits 130: never a pass', async () => {
    const { base } = await service();
    const io = fakeIO();
    const hanging = await startTestServer((request, response) => {
      // Never answered: Ctrl-C while it is in flight.
      if (isList(request, 'limit=100')) {
        io.signal('SIGINT');
        return;
      }
      void fetch(`${base.replace('/v1', '')}${request.url}`, {
        headers: { authorization: String(request.headers.authorization) },
      })
        .then(async (upstream) => {
          response.writeHead(upstream.status, {
            'content-type': upstream.headers.get('content-type') ?? 'application/json',
          });
          response.end(await upstream.text());
        })
        .catch(() => response.destroy());
    });
    stops.push(hanging.close);
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: `${hanging.url}/v1`,
      PETSTORE_API_KEY: KEY,
    };
    const junit = join(mkdtempSync(join(tmpdir(), 'smoke-')), 'smoke.xml');
    // At once: the read in flight is never answered.
    const code = await main(['smoke', '-o', 'json', '--junit', junit], io, env);
    expect(code).toBe(130);
    const rows = rowsOf(io.out());
    expect(rows.find((row) => row.name === 'list pets, limit 1')?.outcome).toBe('pass');
    expect(rows.find((row) => row.name === 'list pets, limit 100')).toMatchObject({
      outcome: 'skip',
      detail: 'not run: interrupted',
    });
    expect(io.err()).toMatch(/smoke interrupted by SIGINT: \d+ check\(s\) not run/);
    const report = readFileSync(junit, 'utf8');
    expect(report).toContain('not run: interrupted');
    // The report alone says the run did not finish: a failed case, not only skipped ones.
    expect(report).toMatch(
      /<testcase [^>]*name="smoke run"[^>]*>\s*<failure message="smoke interrupted by SIGINT/,
    );
  });

  it('a --repeat canary cut short exits 130 too; --every alone ends by its worst outcome', async () => {
    const { base } = await service();
    const io = fakeIO();
    const env = { HOME: freshHome(), PETSTORE_BASE_URL: base, PETSTORE_API_KEY: KEY };
    const running = main(['smoke', '-o', 'json', '--repeat', '100000'], io, env);
    await waitUntil(() => io.err().includes('{"round":{"round":1,"of":100000,'), 'the first round');
    io.signal('SIGINT');
    expect(await running).toBe(130);
  });

  it('--junit with no file name is refused before any request', async () => {
    const { base, server } = await service();
    const result = await smoke(base, ['--junit', '']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('--junit needs a file name');
    expect(server.requests).toHaveLength(0);
  });
});

describe('the canary', () => {
  it('--repeat 20 prints a line per round and a summary per check', async () => {
    const { base, quickstart } = await service();
    const result = await smoke(base, ['--repeat', '20', '--allow-writes'], quickstart);
    expect(result.code, result.err).toBe(0);
    expect(result.err.match(/^\{"round":\{"round":\d+,"of":20,/gm)).toHaveLength(20);
    const summary = JSON.parse(result.out) as {
      name: string;
      runs: number;
      passRate: number | null;
      p95Ms: number;
    }[];
    expect(summary.find((row) => row.name === 'list pets, limit 1')).toMatchObject({
      runs: 20,
      passRate: 100,
    });
    expect(summary.find((row) => row.name === 'not shown: limit 0')).toMatchObject({
      runs: 20,
      passRate: null,
    });
    expect(result.err).toContain('over 20 round(s)');
  });

  it('--every stops cleanly on Ctrl-C with the summary, exit by the worst outcome', async () => {
    const { base } = await service((request, answer) =>
      isList(request, 'limit=1')
        ? { ...answer, text: '[{"id":"x","name":"Rex","categoryId":1}]' }
        : answer,
    );
    const io = fakeIO();
    const env = { HOME: freshHome(), PETSTORE_BASE_URL: base, PETSTORE_API_KEY: KEY };
    // A round, then the pause of --every: Ctrl-C in the pause ends it at once (a pause of an
    // hour, which would outlast this test's time).
    const running = main(['smoke', '-o', 'json', '--every', '1h'], io, env);
    await waitUntil(() => io.err().includes('{"round":{"round":1,"of":null,'), 'the first round');
    io.signal('SIGINT');
    const code = await running;
    expect(code).toBe(8);
    expect(io.err()).toContain(
      'SIGINT: stopping now (a write in flight is waited for); the summary follows',
    );
    const summary = JSON.parse(io.out()) as { name: string; failed: number }[];
    expect(summary.find((row) => row.name === 'list pets, limit 1')?.failed).toBeGreaterThan(0);
  });

  it('refuses a duration or a count it cannot read, before any request', async () => {
    for (const args of [
      ['--every', 'soon'],
      ['--every', '0s'],
      ['--repeat', '0'],
      ['--max-latency', '-1'],
    ]) {
      const io = fakeIO();
      const code = await main(['smoke', ...args], io, {
        HOME: freshHome(),
        PETSTORE_BASE_URL: 'http://127.0.0.1:9/v1',
        PETSTORE_API_KEY: KEY,
      });
      expect(code, args.join(' ')).toBe(2);
    }
  });
});

// The interface's own refusal: the body of a 400 is checked like any Error body.
describe('a 400 for a pet without categoryId', () => {
  it('passes with an Error body, fails with another', async () => {
    const server = await startTestServer((req, res) => {
      if (req.method === 'POST' && req.url === '/v1/pets') {
        sendJson(res, 400, '{"code":"invalid_pet","message":"categoryId is required"}');
      } else sendJson(res, 200, '[]');
    });
    stops.push(server.close);
    const result = await smoke(`${server.url}/v1`, ['--allow-writes']);
    const check = rowsOf(result.out).find((row) => row.name.startsWith('reject a pet'));
    expect(check).toMatchObject({ outcome: 'fail' });
    expect(check!.detail).toContain('$.status is missing');
  });
});

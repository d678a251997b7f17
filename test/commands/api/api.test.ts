import { writeFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { FakeTransport, json } from '../../helpers/fake-transport.js';
import { freshHome } from '../../helpers/run-cli.js';
import { sandboxService } from '../../helpers/sandbox-service.js';

const KEY = 'sk_live_API_COMMAND_7777';
const env = () => ({
  HOME: freshHome(),
  PETSTORE_BASE_URL: 'https://api.petstore.test/v1',
  PETSTORE_QUICKSTART_URL: 'https://quick.petstore.test/quickstart',
  PETSTORE_API_KEY: KEY,
});

async function run(args: string[], transport: FakeTransport, tty = false) {
  const io = fakeIO({ tty });
  const code = await main(args, io, env(), { transport });
  return { code, out: io.out(), err: io.err() };
}

describe('petstore api: the request', () => {
  it('GET by default; with -X GET, -f/-F fields are its query, under the base URL', async () => {
    const plain = new FakeTransport().on('GET', '/v1/store/orders', json(200, []));
    expect((await run(['api', '/store/orders'], plain)).code).toBe(0);
    const transport = new FakeTransport().on(
      'GET',
      '/v1/store/orders?status=open&limit=5&big=9223372036854775807',
      json(200, [{ id: 1 }]),
    );
    const result = await run(
      [
        'api',
        '-X',
        'GET',
        '/store/orders',
        '-f',
        'status=open',
        '-F',
        'limit=5',
        '-F',
        'big=9223372036854775807',
      ],
      transport,
    );
    expect(result).toMatchObject({ code: 0, out: '[{"id":1}]\n' });
    expect(transport.requests[0]!.headers).toMatchObject({ authorization: `Bearer ${KEY}` });
    expect(transport.requests[0]!.headers['idempotency-key']).toBeUndefined();
    transport.verify();
  });

  it('POST with fields: a JSON body with typed values, int64 exact, and an Idempotency-Key', async () => {
    const transport = new FakeTransport().on('POST', '/v1/pets', (request) =>
      json(201, request.body ?? '')(),
    );
    const result = await run(
      [
        'api',
        '/pets',
        '-F',
        'name=Rex',
        '-F',
        'categoryId=9223372036854775807',
        '-F',
        'ok=true',
        '-F',
        'none=null',
        '-f',
        'raw=42',
      ],
      transport,
    );
    expect(result.code).toBe(0);
    expect(transport.requests[0]!.body).toBe(
      '{"name":"Rex","categoryId":9223372036854775807,"ok":true,"none":null,"raw":"42"}',
    );
    expect(transport.requests[0]!.headers['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.out).toBe(`${transport.requests[0]!.body}\n`);
  });

  it('--input is the body, fields then its query; -F @FILE reads a file; -H adds a header', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-api-'));
    writeFileSync(join(folder, 'body.json'), '{"name":"Tom","categoryId":2}');
    writeFileSync(join(folder, 'note.txt'), 'from a file\n');
    const transport = new FakeTransport().on('PUT', '/v1/things/1?note=from+a+file', json(200, {}));
    const result = await run(
      [
        'api',
        '-X',
        'put',
        '/things/1',
        '--input',
        join(folder, 'body.json'),
        '-F',
        `note=@${join(folder, 'note.txt')}`,
        '-H',
        'X-Trace: abc',
      ],
      transport,
    );
    expect(result.code, result.err).toBe(0);
    expect(transport.requests[0]).toMatchObject({
      method: 'PUT',
      body: '{"name":"Tom","categoryId":2}',
      headers: { 'x-trace': 'abc', authorization: `Bearer ${KEY}` },
    });
  });

  it('-F numbers go as typed, digit for digit: -0, long fractions, past int64', async () => {
    const transport = new FakeTransport().on('POST', '/v1/things', (request) =>
      json(201, request.body ?? '')(),
    );
    const values = ['-0', '0.12345678901234567890123', '9223372036854775808', '1e400', '-1.5E-7'];
    const result = await run(
      ['api', '/things', ...values.flatMap((value, i) => ['-F', `v${i}=${value}`])],
      transport,
    );
    expect(result.code, result.err).toBe(0);
    expect(transport.requests[0]!.body).toBe(
      `{${values.map((value, i) => `"v${i}":${value}`).join(',')}}`,
    );
  });

  it('builds lists and objects from name[] and name[key] fields, as gh api does', async () => {
    const transport = new FakeTransport().on('POST', '/v1/things', (request) =>
      json(201, request.body ?? '')(),
    );
    const result = await run(
      [
        'api',
        '/things',
        ...['-F', 'tags[]=1', '-F', 'tags[]=2', '-f', 'owner[name]=Ann'],
        ...['-F', 'owner[address][zip]=12345', '-F', 'items[][id]=7', '-f', 'items[][name]=a'],
        ...['-F', 'items[][id]=8'],
      ],
      transport,
    );
    expect(result.code, result.err).toBe(0);
    expect(JSON.parse(transport.requests[0]!.body!)).toEqual({
      tags: [1, 2],
      owner: { name: 'Ann', address: { zip: 12345 } },
      // A key the last object lacks goes into it; one it has starts the next.
      items: [{ id: 7, name: 'a' }, { id: 8 }],
    });
  });

  it.each([
    [['-F', 'a=1', '-F', 'a=2'], 'clashes with another field'],
    [['-F', 'a=1', '-F', 'a[b]=2'], 'clashes with another field'],
    [['-F', 'a=null', '-F', 'a[]=2'], 'clashes with another field'],
    [['-F', 'a[]=1', '-F', 'a[b]=2'], 'clashes with another field'],
    [['-F', 'a]b=1'], 'is not name, name[] or name[sub]'],
    [['-H', 'Expect: 100-continue'], '-H expect is about the connection'],
    [['-H', 'Proxy-Authorization: Basic dXNlcjpwYXNz'], '-H proxy-authorization is about'],
    [['-H', 'Transfer-Encoding: chunked'], '-H transfer-encoding is about'],
    [['-H', 'Connection: close'], '-H connection is about'],
  ])('a body write refuses %j with exit 2, sending nothing', async (args, message) => {
    const transport = new FakeTransport();
    const result = await run(['api', '/things', '-f', 'x=1', ...args], transport);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(transport.requests).toHaveLength(0);
  });

  it('a header given twice is sent once with both values; --idempotency-key on a read is refused', async () => {
    const transport = new FakeTransport().on('GET', '/v1/things', json(200, []));
    const result = await run(
      ['api', '/things', '-H', 'X-A: 1', '-H', 'x-a: 2', '-H', 'Cookie: a=1', '-H', 'cookie: b=2'],
      transport,
    );
    expect(result.code, result.err).toBe(0);
    expect(transport.requests[0]!.headers).toMatchObject({ 'x-a': '1, 2', cookie: 'a=1; b=2' });
    const keyed = await run(['api', '/things', '--idempotency-key', 'k-1'], transport);
    expect(keyed.code).toBe(2);
    expect(keyed.err).toContain('--idempotency-key names a write; a GET carries none');
  });

  it('--input nested past the limit says so, not "not valid JSON"', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-api-'));
    writeFileSync(join(folder, 'deep.json'), `${'['.repeat(1500)}${']'.repeat(1500)}`);
    const transport = new FakeTransport();
    const result = await run(['api', '/things', '--input', join(folder, 'deep.json')], transport);
    expect(result.code).toBe(2);
    expect(result.err).toContain('nested more than 1000 levels deep');
    expect(transport.requests).toHaveLength(0);
  });

  it('quickstart:/PATH goes to the quickstart base URL', async () => {
    const transport = new FakeTransport().on(
      'POST',
      '/quickstart/messages',
      json(202, { id: 'm1' }),
    );
    expect((await run(['api', 'quickstart:/messages', '-f', 'message=hi'], transport)).code).toBe(
      0,
    );
    expect(transport.requests[0]!.url.host).toBe('quick.petstore.test');
  });

  it.each([
    [['https://evil.test/v1/pets'], "is not the profile's service"],
    [['pets'], 'the path must start with /'],
    [['/pets', '-H', 'Authorization: Bearer x'], '-H authorization is set by petstore'],
    [['/pets', '-H', 'Idempotency-Key: k'], '-H idempotency-key is set by petstore'],
    [['/pets', '-X', 'BREW'], '-X must be one of'],
    [['/pets', '-f', 'novalue'], '-f takes key=value'],
    [['/pets', '-X', 'GET', '--input', '-'], '--input sends a body, which GET has none of'],
    [['/pets', '-X', 'POST', '--paginate'], '--paginate follows the pages of a GET'],
    // Absolute URLs a parser refuses: a usage error, never "a bug in petstore".
    [['https://api.petstore.test:443:444/v1/pets'], 'is not a valid URL'],
    [['https://api.petstore.test./v1/pets'], "is not the profile's service"],
    [['http://[::1/v1/pets'], 'is not a valid URL'],
    [['https://user:Pa55word@api.petstore.test/v1/pets'], 'holds a user name or password'],
    // Paths that leave the base path: dot segments, as typed or percent-encoded.
    [['/../echo'], 'has a . or .. segment'],
    [['/%2e%2e/echo'], 'has a . or .. segment'],
    [['/.%2E/pets'], 'has a . or .. segment'],
    [['/pets/./1'], 'has a . or .. segment'],
    [['/pets\\..\\..\\x'], 'holds a backslash'],
    [['quickstart:/m\\..\\..\\v1\\pets'], 'holds a backslash'],
    // Control characters a URL parser would drop or encode silently.
    [['/pets\r\nX-Injected: 1'], 'holds a control character'],
    [['/pe\tts'], 'holds a control character'],
  ])('refuses %j with exit 2, sending nothing', async (args, message) => {
    const transport = new FakeTransport();
    const result = await run(['api', ...args], transport);
    expect(result.code).toBe(2);
    expect(result.err).toContain(message);
    expect(result.err).not.toContain('Pa55word');
    expect(transport.requests).toHaveLength(0);
    const dryRun = await run(['api', ...args, '--dry-run'], transport);
    expect(dryRun.code).toBe(2);
    expect(dryRun.out + dryRun.err).not.toContain('Pa55word');
  });

  it('keeps a . inside a segment and .. inside a name: only whole dot segments leave the path', async () => {
    const transport = new FakeTransport()
      .on('GET', '/v1/files/a..b', json(200, []))
      .on('GET', '/v1/.well-known/x', json(200, []));
    expect((await run(['api', '/files/a..b'], transport)).code).toBe(0);
    expect((await run(['api', '/.well-known/x'], transport)).code).toBe(0);
  });

  it('--dry-run shows the request, the key redacted, and sends nothing', async () => {
    const transport = new FakeTransport();
    const result = await run(
      ['api', '/pets', '-F', 'name=Rex', '--dry-run', '--idempotency-key', 'k-1'],
      transport,
    );
    expect(JSON.parse(result.out)).toMatchObject({
      method: 'POST',
      url: 'https://api.petstore.test/v1/pets',
      headers: { authorization: 'Bearer ****', 'idempotency-key': 'k-1' },
      body: { name: 'Rex' },
    });
    expect(result.out + result.err).not.toContain(KEY);
    expect(transport.requests).toHaveLength(0);
  });

  it('masks a credential a field puts in the query, as one written in the path (a probe found it)', async () => {
    for (const extra of [['--dry-run'], ['-v']]) {
      const transport = new FakeTransport().on(
        'GET',
        '/v1/pets?access_token=tok3nValue9',
        json(200, []),
      );
      const result = await run(
        ['api', '/pets', '-X', 'GET', '-f', 'access_token=tok3nValue9', ...extra],
        transport,
      );
      expect(result.out + result.err, extra.join(' ')).not.toContain('tok3nValue9');
      expect(result.out + result.err).toContain('access_token=****');
    }
  });
});

describe('petstore api: the answer', () => {
  it("a text body's control characters are shown, to a pipe or a terminal; --raw writes them as sent", async () => {
    const body = 'plain\u001b]0;title\u0007 \u001b[2Jgone\r\nbell\u0007 c1\u009b31m del\u007f\n';
    const text = () => ({ status: 200, headers: { 'content-type': 'text/plain' }, text: body });
    for (const tty of [false, true]) {
      const shown = await run(
        ['api', '/notes'],
        new FakeTransport().on('GET', '/v1/notes', text),
        tty,
      );
      expect(shown.code).toBe(0);
      // A CR ending a line is kept in a pipe; a terminal would act on it, so it is left out there.
      const lineEnd = tty ? '\n' : '\r\n';
      expect(shown.out).toBe(`plain^[]0;title^G ^[[2Jgone${lineEnd}bell^G c1M-^[31m del^?\n`);
      expect(shown.out).not.toMatch(/[\u0000-\u0008\u000b-\u000c\u000e-\u001f\u007f-\u009f]/);
    }
    const raw = await run(
      ['api', '/notes', '--raw'],
      new FakeTransport().on('GET', '/v1/notes', text),
    );
    expect(raw.out).toBe(body);
    expect(raw.err).toContain('--raw: the body is written as the service sent it');
  });

  it('a JSON string that spells the key with escapes is masked as decoded', async () => {
    // The string's text is `\u0073\u006b...`: one more unescape (jq -r, then a reader) gives the key.
    const spelled = Array.from(KEY, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const shown = await run(
      ['api', '/notes'],
      new FakeTransport().on('GET', '/v1/notes', () => ({
        status: 200,
        headers: { 'content-type': 'application/json' },
        text: JSON.stringify({ note: spelled.join('') }),
      })),
    );
    expect(shown.code).toBe(0);
    expect(shown.out).toContain('"note"');
    expect(shown.out).not.toContain(spelled.slice(0, 8).join('').replaceAll('\\', '\\\\'));
    expect(shown.out).toContain('****7777');
  });

  it('characters that reorder or hide a text body are shown by their code points, in a pipe too', async () => {
    // A right-to-left override, a zero-width space splitting a word, isolates, a separator.
    const body = 'abc\u202edef ab\u200bcd \u2066x\u2069 a\u2028b emoji 👩\u200d💻\n';
    const shown = await run(
      ['api', '/notes'],
      new FakeTransport().on('GET', '/v1/notes', () => ({
        status: 200,
        headers: { 'content-type': 'text/plain' },
        text: body,
      })),
    );
    expect(shown.out).toBe(
      'abc<U+202E>def ab<U+200B>cd <U+2066>x<U+2069> a<U+2028>b emoji 👩\u200d💻\n',
    );
  });

  it('an error status exits with its code, and a write answered 5xx is unknown, with its key', async () => {
    const notFound = new FakeTransport().on(
      'GET',
      '/v1/store/orders',
      json(404, { code: 'not_found', message: 'no', status: 404 }),
    );
    expect((await run(['api', '/store/orders'], notFound)).code).toBe(4);
    const failing = new FakeTransport().on(
      'POST',
      '/v1/pets',
      json(500, { code: 'boom', message: 'x', status: 500 }),
    );
    const result = await run(
      ['api', '/pets', '-F', 'name=A', '--idempotency-key', 'k-500'],
      failing,
    );
    expect(result.code).toBe(6);
    expect(JSON.parse(result.err)).toMatchObject({ idempotencyKey: 'k-500' });
  });

  it('-i shows an error answer’s status and headers too', async () => {
    const transport = new FakeTransport().on(
      'GET',
      '/v1/things',
      json(
        401,
        { code: 'unauthorized', message: 'no', status: 401 },
        {
          'www-authenticate': 'Bearer realm="animal-store"',
        },
      ),
    );
    const result = await run(['api', '/things', '-i'], transport);
    expect(result.code).toBe(3);
    expect(result.err).toContain(
      '{"response":{"status":401,"headers":{"content-type":"application/json","www-authenticate":"Bearer realm=\\"animal-store\\""',
    );
  });

  it('a write answered from an earlier request says so on stderr', async () => {
    const transport = new FakeTransport().on(
      'POST',
      '/v1/pets',
      json(201, { id: 1, name: 'Rex', categoryId: 1 }, { 'idempotent-replayed': 'true' }),
    );
    const result = await run(
      ['api', '/pets', '-F', 'name=Rex', '-F', 'categoryId=1', '--idempotency-key', 'k-1'],
      transport,
    );
    expect(result.code, result.err).toBe(0);
    expect(result.err).toContain('had already received this request (same Idempotency-Key)');
  });

  it('a list of flat objects is a table on a terminal; anything else stays JSON', async () => {
    const list = new FakeTransport().on(
      'GET',
      '/v1/store/orders',
      json(200, [{ id: 1, state: 'open' }]),
    );
    expect((await run(['api', '/store/orders', '--no-color'], list, true)).out).toBe(
      'ID  STATE\n1   open\n',
    );
    const nested = new FakeTransport().on(
      'GET',
      '/v1/store/orders',
      json(200, [{ id: 1, items: [1] }]),
    );
    expect(JSON.parse((await run(['api', '/store/orders'], nested, true)).out)).toEqual([
      { id: 1, items: [1] },
    ]);
  });

  it('-i prints the status and headers on stderr, the key masked', async () => {
    const transport = new FakeTransport().on(
      'GET',
      '/v1/store/orders',
      json(200, [], { 'x-echo': KEY }),
    );
    const result = await run(['api', '/store/orders', '-i'], transport);
    expect(result.err).toContain('{"response":{"status":200,"headers":{');
    expect(result.err).toContain('"x-echo":"****7777"');
    expect(result.err).not.toContain(KEY);
  });
});

describe('petstore api against the sandbox', () => {
  it('creates a pet with an int64 category and pages through the list', async () => {
    const { env: sandboxEnv, pets } = await sandboxService();
    for (const name of ['Rex', 'Tom', 'Kit']) {
      const io = fakeIO();
      const args = [
        'api',
        '-X',
        'POST',
        '/pets',
        '-F',
        `name=${name}`,
        '-F',
        'categoryId=9223372036854775807',
      ];
      expect(await main(args, io, sandboxEnv), io.err()).toBe(0);
    }
    expect((await pets()).map((pet) => pet.name)).toEqual(['Rex', 'Tom', 'Kit']);
    const io = fakeIO();
    expect(
      await main(['api', '/pets', '-F', 'limit=2', '--paginate', '-o', 'ndjson'], io, sandboxEnv),
    ).toBe(0);
    expect(io.out().trimEnd().split('\n')).toEqual([
      '{"id":1,"name":"Rex","categoryId":9223372036854775807}',
      '{"id":2,"name":"Tom","categoryId":9223372036854775807}',
      '{"id":3,"name":"Kit","categoryId":9223372036854775807}',
    ]);
    const orders = fakeIO();
    expect(await main(['api', '/store/orders'], orders, sandboxEnv)).toBe(4);
    expect(JSON.parse(orders.err())).toMatchObject({ code: 'not_found', status: 404 });
  });
});

describe('petstore api --paginate: where links may lead', () => {
  const page = (link: string) => json(200, [{ id: 1 }], { link: `<${link}>; rel="next"` });

  it.each([
    ['another port', 'https://api.petstore.test:8443/v1/leak'],
    ['another host', 'https://evil.test/v1/leak'],
    ['another scheme', 'http://api.petstore.test/v1/leak'],
    ['a scheme-relative link', '//evil.test/v1/leak'],
  ])('never follows a next link to %s: exit 6, the key not sent there', async (_what, link) => {
    const transport = new FakeTransport().on('GET', '/v1/pets', page(link));
    const result = await run(['api', '/pets', '--paginate', '-o', 'ndjson'], transport);
    expect(result.code).toBe(6);
    expect(result.err).toContain('goes to another origin');
    expect(result.out).toBe('{"id":1}\n');
    expect(transport.requests.map((request) => request.url.host)).toEqual(['api.petstore.test']);
  });

  it('follows a link to the quickstart origin, which holds the key already', async () => {
    const transport = new FakeTransport()
      .on('GET', '/v1/pets', page('https://quick.petstore.test/quickstart/more'))
      .on('GET', '/quickstart/more', json(200, [{ id: 2 }]));
    const result = await run(['api', '/pets', '--paginate', '-o', 'ndjson'], transport);
    expect(result).toMatchObject({ code: 0, out: '{"id":1}\n{"id":2}\n' });
  });

  it('stops a service whose empty pages keep linking new ones: exit 6, as pets list --all', async () => {
    let served = 0;
    const transport = new FakeTransport().on('GET', '/v1/pets', () => {
      served++;
      return json(200, [], { link: `</v1/pets?page=${served}>; rel="next"` })();
    });
    for (let i = 1; i <= 20; i++) {
      transport.on('GET', `/v1/pets?page=${i}`, () => {
        served++;
        return json(200, [], { link: `</v1/pets?page=${served}>; rel="next"` })();
      });
    }
    const result = await run(['api', '/pets', '--paginate'], transport);
    expect(result.code).toBe(6);
    expect(result.err).toContain('10 empty pages in a row');
    expect(transport.requests).toHaveLength(10);
  });
});

describe('petstore api: fields that made a POST', () => {
  const refused = json(400, { code: 'invalid_pet', message: 'name is required', status: 400 });

  it('a 4xx to it says so, with the way to send them as a GET query', async () => {
    for (const field of [
      ['-f', 'status=sold'],
      ['-F', 'limit=5'],
    ]) {
      const transport = new FakeTransport().on('POST', '/v1/pets', refused);
      const result = await run(['api', '/pets', ...field], transport, true);
      expect(result.code).toBe(5);
      expect(result.err).toContain(
        'hint: The -f/-F fields made this a POST, sent in its JSON body; to send them as query parameters instead, add -X GET.',
      );
    }
  });

  it('not when -X POST asked for it, nor for --input, nor for another status', async () => {
    const body = join(mkdtempSync(join(tmpdir(), 'petstore-api-')), 'body.json');
    writeFileSync(body, '{"status":"sold"}');
    const cases: [string[], number][] = [
      [['api', '-X', 'POST', '/pets', '-f', 'status=sold'], 400],
      [['api', '/pets', '--input', body], 400],
      [['api', '/pets', '-f', 'status=sold'], 401],
    ];
    for (const [args, status] of cases) {
      const transport = new FakeTransport().on(
        'POST',
        '/v1/pets',
        json(status, { code: 'x', message: 'no', status }),
      );
      const io = fakeIO({ tty: true });
      expect(await main(args, io, env(), { transport })).not.toBe(0);
      expect(transport.requests).toHaveLength(1);
      expect(io.err()).not.toContain('add -X GET');
    }
  });
});

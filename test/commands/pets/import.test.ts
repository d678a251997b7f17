import { readJournalFile } from '../../helpers/journal-file.js';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HttpRequest } from '../../../src/api/http.js';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { FakeTransport, json } from '../../helpers/fake-transport.js';
import { freshHome } from '../../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../../helpers/test-server.js';
import { waitUntil } from '../../helpers/wait-until.js';

let server: TestServer;
let env: Record<string, string>;
let nextId = 100;

/** Answers POST /pets by echoing the body with an id; names starting with "bad" get 400. */
beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const pet = JSON.parse(req.body) as { name: string };
    if (pet.name.startsWith('bad')) {
      sendJson(res, 400, '{"code":"invalid_name","message":"bad name","status":400}');
    } else {
      sendJson(res, 201, JSON.stringify({ id: nextId++, ...pet }));
    }
  });
  env = {
    HOME: freshHome(),
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_API_KEY: 'sk_test_k_key',
  };
});
afterAll(() => server.close());

function petsFile(content: string | Uint8Array): string {
  const path = join(mkdtempSync(join(tmpdir(), 'petstore-bulk-')), 'pets');
  writeFileSync(path, content);
  return path;
}

describe('pets import reads exactly what was given', () => {
  it('refuses invalid UTF-8 with its line number, and sends nothing', async () => {
    const before = server.requests.length;
    const latin1 = Buffer.concat([
      Buffer.from('{"name":"A","categoryId":1}\n{"name":"Caf'),
      Buffer.from([0xe9]),
      Buffer.from('","categoryId":1}\n'),
    ]);
    const io = fakeIO();
    expect(await main(['pets', 'import', petsFile(latin1)], io, env)).toBe(2);
    expect(JSON.parse(io.err())).toMatchObject({
      code: 'usage',
      message: expect.stringContaining('line 2: not valid UTF-8; nothing was sent') as string,
    });
    expect(server.requests.length).toBe(before);
  });

  it('accepts a UTF-8 byte order mark at the start, from a file or stdin', async () => {
    const bom = '\uFEFF{"name":"Zoë","categoryId":1}\n';
    const fromFile = fakeIO();
    expect(await main(['pets', 'import', petsFile(bom)], fromFile, env)).toBe(0);
    expect(JSON.parse(fromFile.out())).toMatchObject({ name: 'Zoë' });
    const fromStdin = fakeIO({ stdin: bom });
    // The same pets again, on purpose (else refused as imported before).
    expect(await main(['pets', 'import', '-', '--again'], fromStdin, env)).toBe(0);
    expect(JSON.parse(fromStdin.out())).toMatchObject({ name: 'Zoë' });
  });
});

describe('pets import', () => {
  it('imports a sheet as people type it: headers and statuses in any case, said once', async () => {
    const io = fakeIO();
    const file = petsFile('Name,Category ID,Status\r\nRex,1,Available\r\nTom,2,SOLD\r\n');
    expect(await main(['pets', 'import', file, '--input-format', 'csv'], io, env)).toBe(0);
    const sent = io
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; status: string });
    expect(sent.map((pet) => [pet.name, pet.status]).sort()).toEqual([
      ['Rex', 'available'],
      ['Tom', 'sold'],
    ]);
    expect(io.err().match(/another letter case/g)).toHaveLength(1);
    expect(io.err()).toContain('2 records give their status in another letter case');
  });

  it('writes one JSON line per created pet and exits 0', async () => {
    nextId = 100;
    const io = fakeIO();
    const file = petsFile(
      '{"name":"A","categoryId":1}\n{"name":"B","categoryId":2}\n{"name":"C","categoryId":3}\n',
    );
    expect(await main(['pets', 'import', file, '--concurrency', '2'], io, env)).toBe(0);
    const lines = io
      .out()
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as { name: string; id: number });
    expect(lines.map((pet) => pet.name).sort()).toEqual(['A', 'B', 'C']);
    expect(new Set(lines.map((pet) => pet.id)).size).toBe(3);
  });

  it('keeps going after a failure, reports it with its record, and exits with its code', async () => {
    nextId = 100;
    const io = fakeIO();
    const file = petsFile(
      '[{"name":"A","categoryId":1},{"name":"bad","categoryId":2},{"name":"C","categoryId":3}]',
    );
    expect(await main(['pets', 'import', file, '--concurrency', '1'], io, env)).toBe(5);
    expect(io.out().trimEnd().split('\n')).toHaveLength(2);
    const [journalLine, ...rest] = io.err().trimEnd().split('\n');
    expect(journalLine).toMatch(/^\{"journal":\{"path":".*\.journal",/);
    const errors = rest.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(errors[0]).toMatchObject({ code: 'invalid_name', status: 400, record: 2 });
    expect(errors.at(-1)).toMatchObject({
      code: 'bulk_failed',
      message: expect.stringContaining('3 records to') as string,
    });
  });

  it('starts nothing new after the first failure with --fail-fast', async () => {
    nextId = 100;
    const io = fakeIO({ tty: true });
    const file = petsFile(
      '{"name":"A","categoryId":1}\n{"name":"bad","categoryId":2}\n{"name":"C","categoryId":4}\n',
    );
    expect(
      await main(
        // On a terminal, but without the progress line drawn between the messages.
        [
          ...['pets', 'import', file, '--concurrency', '1', '--fail-fast', '--no-color'],
          ...['--progress', 'never'],
        ],
        io,
        env,
      ),
    ).toBe(5);
    // At a terminal: the records not created listed once at the end, then the summary and
    // the one command that completes the run.
    expect(io.err()).toContain(
      'Not created (1):\n  record 2  bad: not created: bad name (invalid_name, HTTP 400)\n',
    );
    expect(io.err()).toContain(
      `petstore: 3 records to ${server.url}/v1: created 1 now; 1 failed, 1 not attempted (stopped at the first failure)\nhint: Complete the run with: petstore --base-url ${server.url}/v1 pets import --resume `,
    );
    expect(io.out()).toMatch(/^100\s+A\s/m);
    // One command everywhere: the run's first line names the same one, and the failed go too.
    const said = /complete it with: (.*?)\)$/m.exec(io.err())?.[1];
    expect(said).toMatch(/ --retry-unknown$/);
    expect(io.err()).toContain(`hint: Complete the run with: ${said!} --retry-failed`);
  });

  it('checks every record before sending anything', async () => {
    const io = fakeIO();
    const file = petsFile('{"name":"A","categoryId":1}\n{"name":"B"}\n');
    expect(await main(['pets', 'import', file], io, env)).toBe(2);
    expect(io.out()).toBe('');
  });

  it.each([
    [['x', '--name', 'A'], "unknown option '--name'"],
    [['x', '--concurrency', '0'], '--concurrency must be a whole number from 1 to 16'],
    [['x', '--idempotency-key', 'k'], "unknown option '--idempotency-key'"],
    [
      ['--resume', 'j', '--batch-id', 'b'],
      "'--resume <journal>' cannot be used with option '--batch-id",
    ],
    [
      ['--resume', 'j', '--journal', 'k'],
      "'--resume <journal>' cannot be used with option '--journal",
    ],
    [['--concurrency', '2'], 'pets import needs a FILE to read'],
    [['x', '--batch-id', 'two words'], '--batch-id must be 1 to 128 letters'],
    [['x', '--retry-failed'], '--retry-failed goes with --resume JOURNAL'],
    [['x', '--template', 'csv'], '--template prints a template and takes no file or other flag'],
  ])('pets import refuses %j with exit 2', async (args, message) => {
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'import', ...args], io, env)).toBe(2);
    expect(io.err()).toContain(message);
  });

  it.each([
    [['--file', 'pets.csv'], 'Run: petstore pets import pets.csv'],
    [['--resume', 'b-1'], 'Run: petstore pets import --resume b-1'],
    [['--template', 'csv'], 'Run: petstore pets import --template csv'],
  ])('pets add %j exits 2 naming pets import', async (args, hint) => {
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'add', ...args], io, env)).toBe(2);
    expect(io.err()).toContain('pets add adds one pet');
    expect(io.err()).toContain(hint);
  });
});

describe('pets import, failures of the whole run', () => {
  it('stops at a refused key and reports it once, not once per record', async () => {
    const io = fakeIO();
    const file = petsFile(
      '{"name":"A","categoryId":1}\n{"name":"B","categoryId":2}\n{"name":"C","categoryId":3}\n',
    );
    const refused = await startTestServer((_req, res) => {
      sendJson(res, 401, '{"code":"unauthorized","message":"API key invalid","status":401}');
    });
    try {
      const code = await main(['pets', 'import', file, '--concurrency', '1'], io, {
        ...env,
        PETSTORE_BASE_URL: `${refused.url}/v1`,
      });
      expect(code).toBe(3);
      expect(refused.requests).toHaveLength(1);
      const lines = io.err().trim().split('\n');
      expect(lines).toHaveLength(3);
      expect(lines[0]).toMatch(/^\{"journal":/);
      expect(JSON.parse(lines[1]!)).toMatchObject({
        summary: { records: 3, createdNow: 0, notAttempted: 2 },
      });
      expect(JSON.parse(lines[2]!)).toMatchObject({ code: 'unauthorized', status: 401 });
    } finally {
      await refused.close();
    }
  });
});

describe('pets import, through a recording transport', () => {
  const fakeEnv = {
    HOME: freshHome(),
    PETSTORE_BASE_URL: 'https://api.petstore.test/v1',
    PETSTORE_API_KEY: 'sk_test_k_key',
  };

  function ndjson(count: number): string {
    return Array.from({ length: count }, (_, i) => `{"name":"P${i}","categoryId":1}`).join('\n');
  }

  /** A created pet, echoing the request body with an id. */
  function created(request: HttpRequest, id: number) {
    const pet = JSON.parse(request.body ?? '{}') as object;
    return json(201, { id, ...pet })();
  }

  it.each([1, 3, 16])('really has --concurrency %i requests in flight at once', async (n) => {
    const transport = new FakeTransport();
    let inFlight = 0;
    let maxInFlight = 0;
    let openBarrier!: () => void;
    const barrier = new Promise<void>((resolve) => (openBarrier = resolve));
    // If fewer than n requests are ever in flight together, give up after a while so the test
    // fails on the count below instead of hanging.
    const giveUp = setTimeout(openBarrier, 2_000);
    for (let i = 0; i < n * 2; i++) {
      transport.on('POST', '/v1/pets', async (request) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        if (inFlight === n) openBarrier();
        await barrier;
        inFlight--;
        return created(request, 100 + i);
      });
    }
    const file = petsFile(ndjson(n * 2));
    const io = fakeIO();
    const code = await main(['pets', 'import', file, '--concurrency', String(n)], io, fakeEnv, {
      transport,
    });
    clearTimeout(giveUp);
    expect(code).toBe(0);
    expect(maxInFlight).toBe(n);
    expect(io.out().trimEnd().split('\n')).toHaveLength(n * 2);
    transport.verify();
  });

  it('has each pet journaled as created before its line reaches stdout, and as printed after', async () => {
    const transport = new FakeTransport();
    for (let i = 0; i < 40; i++) {
      transport.on('POST', '/v1/pets', (request) => created(request, 500 + i));
    }
    const journal = join(mkdtempSync(join(tmpdir(), 'petstore-journal-')), 'run.journal');
    const io = fakeIO();
    // That each pet is journaled created before its line is written is the runner's to keep
    // (test/bulk/runner.test.ts); here, that the journal a real run leaves says so of each.
    const file = petsFile(ndjson(40));
    const code = await main(
      ['pets', 'import', file, '--concurrency', '8', '--journal', journal],
      io,
      fakeEnv,
      { transport },
    );
    expect(code).toBe(0);
    const lines = io.out().trimEnd().split('\n');
    expect(lines).toHaveLength(40);
    const { states } = await readJournalFile(journal);
    const printed = [...states].filter(([, state]) => state.outcome === 'created' && state.printed);
    expect(printed.map(([record]) => record).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    const ids = printed.map(([, state]) => (state.outcome === 'created' ? state.pet.id : 0));
    expect(new Set(ids)).toEqual(
      new Set(lines.map((line) => (JSON.parse(line) as { id: number }).id)),
    );
    transport.verify();
  });

  it('writes each created pet to stdout before the run ends', async () => {
    const transport = new FakeTransport();
    const io = fakeIO();
    const linesOut = () => io.out().split('\n').filter(Boolean).length;
    let seenBeforeLastAnswer = -1;
    for (let i = 0; i < 3; i++) {
      transport.on('POST', '/v1/pets', (request) => created(request, 200 + i));
    }
    // The last record is answered only once the first three are on stdout (or after a bound).
    transport.on('POST', '/v1/pets', async (request) => {
      await waitUntil(() => linesOut() >= 3, 'three lines out', 5_000).catch(() => undefined);
      seenBeforeLastAnswer = linesOut();
      return created(request, 203);
    });
    const file = petsFile(ndjson(4));
    const code = await main(['pets', 'import', file, '--concurrency', '4'], io, fakeEnv, {
      transport,
    });
    expect(code).toBe(0);
    expect(seenBeforeLastAnswer).toBe(3);
    expect(linesOut()).toBe(4);
    transport.verify();
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { freshHome } from '../../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../../helpers/test-server.js';

const ERASE = '\r\u001b[2K';
const PETS = 600;

let server: TestServer;
let nextId = 1;

/** Creates every pet, 2 ms after it is asked: a run long enough to draw progress. */
beforeAll(async () => {
  server = await startTestServer((req, res) => {
    const pet = JSON.parse(req.body) as { name: string };
    setTimeout(() => sendJson(res, 201, JSON.stringify({ id: nextId++, ...pet })), 2);
  });
});
afterAll(() => server.close());

function env(): Record<string, string> {
  return {
    HOME: freshHome(),
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_API_KEY: 'sk_test_pg_7Qz9wK2',
  };
}

function input(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'petstore-progress-')), 'pets.ndjson');
  const lines = Array.from({ length: PETS }, (_, i) => `{"name":"p${i}","categoryId":1}\n`);
  writeFileSync(file, lines.join(''));
  return file;
}

/** Each line drawn on stderr: the text after an erase, up to the next erase or newline. */
function drawn(stderr: string): string[] {
  return stderr
    .split(ERASE)
    .slice(1)
    .map((part) => part.split('\n')[0]!)
    .filter((text) => text.includes(' · '));
}

describe('pets import progress', () => {
  it('draws counts of the total, keeps stdout clean, and clears before the summary', async () => {
    const io = fakeIO();
    const code = await main(
      ['pets', 'import', input(), '-o', 'ndjson', '--progress', 'always', '--error-format', 'text'],
      io,
      env(),
    );
    expect(code).toBe(0);
    const lines = drawn(io.err());
    expect(lines.length).toBeGreaterThan(1);
    expect(lines[0]).toMatch(/^created \d+ · failed 0 · unknown 0 · of 600 · [\d,]+\/s/);
    expect(new Set(lines).size).toBe(lines.length);
    expect(io.out()).not.toContain('\r');
    expect(io.out()).not.toContain(' · ');
    expect(io.out().trim().split('\n')).toHaveLength(PETS);
    // The last drawing is erased, and the summary follows on the cleared line.
    const afterLastDrawing = io.err().slice(io.err().lastIndexOf(' · '));
    expect(afterLastDrawing).toContain(ERASE);
    const summary = afterLastDrawing.slice(afterLastDrawing.lastIndexOf(ERASE) + ERASE.length);
    expect(summary).toMatch(/^600 records to .*: created 600 now\./);
  });

  it('after a SIGINT the signal line and the summary each start on a cleared line', async () => {
    const io = fakeIO();
    let printed = 0;
    const write = io.stdout.write.bind(io.stdout);
    io.stdout.write = (text: string) => {
      const before = printed;
      printed += text.split('\n').length - 1;
      if (before < 300 && printed >= 300) setImmediate(() => io.signal('SIGINT'));
      return write(text);
    };
    const code = await main(
      ['pets', 'import', input(), '-o', 'ndjson', '--progress', 'always', '--error-format', 'text'],
      io,
      env(),
    );
    expect(code).toBe(130);
    const stderr = io.err();
    expect(drawn(stderr).length).toBeGreaterThan(1);
    // Every other line begins where a drawing was erased, or on a line of its own.
    for (const message of ['petstore: SIGINT: starting', 'petstore: SIGINT: 600 records']) {
      const at = stderr.indexOf(message);
      expect(at).toBeGreaterThan(0);
      expect(stderr.slice(0, at).endsWith(ERASE) || stderr[at - 1] === '\n').toBe(true);
    }
    expect(stderr.trimEnd().split('\n').at(-1)).not.toContain(' · ');
  });

  it('draws nothing in a pipe, with --quiet, with --progress never, or with errors as JSON', async () => {
    for (const flags of [
      [],
      ['--quiet', '--progress', 'always'],
      ['--progress', 'never'],
      // stderr one JSON object a line: no line drawn in place among them.
      ['--progress', 'always', '-o', 'ndjson'],
    ]) {
      const io = fakeIO();
      expect(await main(['pets', 'import', input(), ...flags], io, env())).toBe(0);
      expect(io.err()).not.toContain('\r');
      expect(io.err()).not.toContain(' · ');
    }
  });

  it('draws nothing on a terminal that cannot erase a line (TERM=dumb), unless asked', async () => {
    const dumb = { ...env(), TERM: 'dumb' };
    const io = fakeIO({ tty: true });
    expect(await main(['pets', 'import', input()], io, dumb)).toBe(0);
    expect(io.err()).not.toContain('\r');
    const forced = fakeIO({ tty: true });
    const again = ['pets', 'import', input(), '--again', '--progress', 'always'];
    expect(await main(again, forced, dumb)).toBe(0);
    expect(forced.err()).toContain(ERASE);
  });

  it('an unknown --progress value is exit 2 before any request', async () => {
    const io = fakeIO();
    const before = nextId;
    expect(await main(['pets', 'import', input(), '--progress', 'sometimes'], io, env())).toBe(2);
    expect(io.err()).toContain('--progress must be auto, always or never');
    expect(nextId).toBe(before);
  });
});

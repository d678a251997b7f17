import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshHome, runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * The progress line as a person sees it: petstore on a real pseudo-terminal (`script`), its
 * stdout sent to a file as a script would; and the same run in a pipe, which draws nothing.
 */

const PETS = 2000;
const ERASE = '\r\u001b[2K';

let server: TestServer;
let nextId = 1;

const PAGES = 40;

/**
 * Creates each pet 1 ms after it is asked: 2,000 take long enough to redraw many times. Lists
 * 40 pages of 100 pets, 10 ms a page, linked by `Link: rel="next"`.
 */
beforeAll(async () => {
  server = await startTestServer((req, res) => {
    if (req.method === 'GET') {
      const page = Number(new URL(req.url, 'http://x').searchParams.get('cursor') ?? 0);
      const pets = Array.from({ length: 100 }, (_, i) => ({
        id: page * 100 + i + 1,
        name: `pet ${page * 100 + i}`,
        categoryId: 1,
        status: 'available',
      }));
      const link: Record<string, string> =
        page + 1 < PAGES ? { link: `</v1/pets?limit=100&cursor=${page + 1}>; rel="next"` } : {};
      setTimeout(() => sendJson(res, 200, JSON.stringify(pets), link), 10);
      return;
    }
    const pet = JSON.parse(req.body) as { name: string };
    setTimeout(() => sendJson(res, 201, JSON.stringify({ id: nextId++, ...pet })), 1);
  });
});
afterAll(() => server.close());

function setup() {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-progress-e2e-'));
  const input = join(folder, 'pets.ndjson');
  const lines = Array.from({ length: PETS }, (_, i) => `{"name":"pet ${i}","categoryId":1}\n`);
  writeFileSync(input, lines.join(''));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: freshHome(),
    TERM: 'xterm',
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_API_KEY: 'sk_test_progress_e2e',
  };
  return { folder, input, env };
}

/** Runs a shell command on a pseudo-terminal; resolves with what the terminal showed. */
function onTerminal(command: string, env: Record<string, string>): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qfec', command, '/dev/null'], { env });
    let shown = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (shown += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve(shown);
    });
  });
}

const quote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

describe('progress on a terminal, and none in a pipe', () => {
  it('a bulk add of 2,000 pets draws a line that updates and is cleared', async () => {
    const { folder, input, env } = setup();
    const out = join(folder, 'created.ndjson');
    const shown = await onTerminal(
      `${quote(process.execPath)} ${quote(BIN)} pets import ${quote(input)} -o ndjson > ${quote(out)}`,
      env,
    );
    const drawings = shown
      .split(ERASE)
      .map((part) => part.split(/\r?\n/)[0]!)
      .filter((text) => / · of 2,000 · /.test(text));
    expect(drawings.length).toBeGreaterThanOrEqual(3);
    expect(drawings[0]).toMatch(/^created [\d,]+ · failed 0 · unknown 0 · of 2,000 · [\d,]+\/s/);
    expect(new Set(drawings).size).toBe(drawings.length);
    // Cleared: after the last drawing comes an erase, then only the summary.
    const end = shown.slice(shown.lastIndexOf(' · of 2,000 · '));
    const afterErase = end.slice(end.indexOf(ERASE) + ERASE.length);
    expect(end).toContain(ERASE);
    // stderr a terminal: the summary in words, whatever stdout is.
    expect(afterErase).toMatch(/^2000 records to /);
    // stdout has the pets and nothing of the progress.
    const created = readFileSync(out, 'utf8');
    expect(created.trimEnd().split('\n')).toHaveLength(PETS);
    expect(created).not.toMatch(/[\r\u001b]| · /);
  }, 90_000);

  it('the same run in a pipe writes no progress bytes at all', async () => {
    const { input, env } = setup();
    const result = await runCli(['pets', 'import', input, '-o', 'ndjson'], { env });
    expect(result.code).toBe(0);
    expect(result.stdout.trimEnd().split('\n')).toHaveLength(PETS);
    expect(result.stderr).not.toMatch(/[\r\u001b]| · /);
    expect(result.stderr).toMatch(/^\{"summary":\{"records":2000,"createdNow":2000,/m);
  }, 90_000);

  it('pets list --all on a terminal shows pets and pages so far, then clears', async () => {
    const { folder, env } = setup();
    const out = join(folder, 'pets.ndjson');
    const shown = await onTerminal(
      `${quote(process.execPath)} ${quote(BIN)} pets list --all -o ndjson > ${quote(out)}`,
      env,
    );
    const drawings = shown
      .split(ERASE)
      .map((part) => part.split(/\r?\n/)[0]!)
      .filter((text) => text.startsWith('pets '));
    expect(drawings.length).toBeGreaterThanOrEqual(3);
    for (const text of drawings) {
      const [, pets, pages] = /^pets ([\d,]+) · pages (\d+)$/.exec(text)!;
      expect(Number(pets!.replace(',', ''))).toBe(Number(pages) * 100);
    }
    expect(shown.endsWith(ERASE)).toBe(true);
    const listed = readFileSync(out, 'utf8');
    expect(listed.trimEnd().split('\n')).toHaveLength(PAGES * 100);
    expect(listed).not.toMatch(/[\r\u001b]| · /);
  }, 90_000);

  it('draws nothing when stdout is a pipe whose reader prints to the same terminal (| cat)', async () => {
    const { env } = setup();
    const shown = await onTerminal(
      `${quote(process.execPath)} ${quote(BIN)} pets list --all -o json | cat`,
      env,
    );
    // Nothing erased what cat printed: the whole list reaches the terminal, in one piece.
    expect(shown).not.toContain(ERASE);
    const listed = JSON.parse(shown.replace(/\r\n/g, '\n')) as unknown[];
    expect(listed).toHaveLength(PAGES * 100);
  }, 90_000);

  it('--progress always draws it all the same', async () => {
    const { env } = setup();
    const shown = await onTerminal(
      `${quote(process.execPath)} ${quote(BIN)} pets list --all -o ndjson --progress always | wc -l`,
      env,
    );
    expect(shown).toContain(ERASE);
  }, 90_000);
});

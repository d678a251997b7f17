import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshHome } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';
import { petstorePid, shellQuote, TerminalSession } from '../helpers/terminal.js';
import { waitUntil } from '../helpers/wait-until.js';

/**
 * A bulk add as a person at a terminal sees it (a real pseudo-terminal): a progress line, one
 * summary and the pets once; no line per created pet. And a run stopped with Ctrl-C (SIGINT)
 * and resumed prints each record once across both runs, in every output format.
 */

const PETS = 2000;
let server: TestServer;
let nextId = 1;

/** Creates each pet 1 ms after it is asked: 2,000 take long enough to stop part way. */
beforeAll(async () => {
  server = await startTestServer((request, response) => {
    const pet = JSON.parse(request.body) as { name: string };
    setTimeout(() => sendJson(response, 201, JSON.stringify({ id: nextId++, ...pet })), 1);
  });
});
afterAll(() => server.close());

function setup() {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-bulk-terminal-'));
  const input = join(folder, 'pets.ndjson');
  const names = Array.from({ length: PETS }, (_, i) => `pet-${String(i).padStart(4, '0')}`);
  writeFileSync(input, names.map((name) => `{"name":"${name}","categoryId":1}\n`).join(''));
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: freshHome(),
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_API_KEY: 'sk_test_bulk_terminal',
  };
  return { folder, input, names, env };
}

const petstore = (args: string[]) => [process.execPath, BIN, ...args].map(shellQuote).join(' ');

/** The names a run's stdout holds, whatever the format. */
function namesIn(text: string): string[] {
  return [...text.matchAll(/pet-\d{4}/g)].map((match) => match[0]);
}

describe('a bulk add at a terminal', () => {
  it('shows the progress line, one summary and each pet once: no line per created pet', async () => {
    const { input, env } = setup();
    const session = new TerminalSession(
      `${petstore(['pets', 'import', input])}; echo EXIT=$?`,
      env,
      90_000,
    );
    try {
      await session.waitFor(/EXIT=\d+/, 80_000);
    } finally {
      session.kill();
      await session.closed;
    }
    const shown = session.output;
    expect(shown).toMatch(/EXIT=0/);
    expect(shown).toMatch(/created [\d,]+ · failed 0 · unknown 0 · of 2,000/);
    const lines = shown.split(/\r?\n/).map((line) => line.replace(/.*\r\u001b\[2K/, ''));
    // The old way: "created 17 pet-0016" on stderr for every pet.
    expect(lines.filter((line) => /^created \d+ pet-/.test(line))).toEqual([]);
    expect(lines.filter((line) => line.includes(`2000 records to `))).toHaveLength(1);
    const rows = namesIn(shown.slice(shown.indexOf('NAME')));
    expect(rows).toHaveLength(PETS);
    expect(new Set(rows).size).toBe(PETS);
  }, 100_000);

  for (const format of ['table', 'json', 'ndjson', 'csv'] as const) {
    it(`stopped with Ctrl-C and resumed, prints each record once across both runs (-o ${format})`, async () => {
      const { folder, input, names, env } = setup();
      const journal = join(folder, 'run.journal');
      const first = join(folder, 'first.out');
      const before = server.requests.length;
      const line = `sh -c ${shellQuote(`echo PETSTORE_PID=$$; exec ${petstore(['pets', 'import', input, '--journal', journal, '-o', format])} > ${shellQuote(first)}`)}; echo EXIT=$?`;
      const session = new TerminalSession(line, env, 90_000);
      try {
        const pid = petstorePid(await session.waitFor('PETSTORE_PID='));
        // Once some hundreds are sent: Ctrl-C, as a person would.
        await waitUntil(() => server.requests.length - before >= 300, '300 records sent');
        process.kill(pid, 'SIGINT');
        await session.waitFor(/EXIT=\d+/, 60_000);
      } finally {
        session.kill();
        await session.closed;
      }
      expect(session.output).toContain('EXIT=130');
      const second = join(folder, 'second.out');
      const resume = new TerminalSession(
        `${petstore(['pets', 'import', '--resume', journal, '--retry-unknown', '-o', format])} > ${shellQuote(second)}; echo EXIT=$?`,
        env,
        90_000,
      );
      try {
        await resume.waitFor(/EXIT=\d+/, 80_000);
      } finally {
        resume.kill();
        await resume.closed;
      }
      expect(resume.output).toContain('EXIT=0');
      const printed = [
        ...namesIn(readFileSync(first, 'utf8')),
        ...namesIn(readFileSync(second, 'utf8')),
      ];
      expect(printed.length, 'each record printed once').toBe(PETS);
      expect(new Set(printed)).toEqual(new Set(names));
      expect(resume.output).toMatch(/[\d,]+ pets were printed by earlier runs of this journal/);
    }, 200_000);
  }
});

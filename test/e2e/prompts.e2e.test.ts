import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshHome, runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';
import { petstoreLine, petstorePid, TerminalSession } from '../helpers/terminal.js';

/**
 * What a person at a terminal is asked for: the values a command was not given, typed at a
 * real pseudo-terminal. Nothing is sent until every answer is in; Ctrl-C or Ctrl-D leaves with
 * 130; in a pipe, or when told not to ask, nothing is asked and the usage error stands.
 */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer((request, response) => {
    if (request.url.endsWith('/messages')) {
      const { message } = JSON.parse(request.body) as { message: string };
      sendJson(
        response,
        200,
        JSON.stringify({ id: 'm1', message, status: 'sent', createdAt: '2026-11-25T00:00:00Z' }),
      );
      return;
    }
    // The body as sent, with an id: int64 digits kept as the client wrote them.
    sendJson(response, 201, request.body.replace(/^\{/, '{"id":7,'));
  });
});
afterAll(() => server.close());

function env(extra: Record<string, string> = {}) {
  return {
    PATH: process.env.PATH ?? '',
    HOME: freshHome(),
    PETSTORE_BASE_URL: `${server.url}/v1`,
    PETSTORE_QUICKSTART_URL: `${server.url}/qs`,
    PETSTORE_API_KEY: 'sk_test_prompts_1234',
    ...extra,
  };
}

const ENTER = '\r';
const DOWN = '\u001b[B';

function session(args: string[], extra: Record<string, string> = {}) {
  const terminal = new TerminalSession(
    petstoreLine(args, 'stty -a; echo STTY_DONE'),
    env(extra),
    60_000,
  );
  return terminal;
}

async function ended(terminal: TerminalSession): Promise<string> {
  try {
    return await terminal.waitFor(/EXIT=\d+[\s\S]*STTY_DONE/, 40_000);
  } finally {
    terminal.kill();
    await terminal.closed;
  }
}

const exitOf = (shown: string) => Number(/EXIT=(\d+)/.exec(shown)?.[1]);
const posts = () => server.requests.filter((request) => request.method === 'POST').length;

describe('pets add at a terminal asks for what is missing', () => {
  it('name, category id (an int64, checked as typed) and status: the pet is created as answered', async () => {
    const before = posts();
    const terminal = session(['pets', 'add', '-o', 'json']);
    await terminal.waitFor('Name');
    terminal.type('Rex the 2nd' + ENTER);
    await terminal.waitFor('Category id');
    terminal.type('12x');
    await terminal.waitFor('12x  ✗');
    // Mended: back over the x, then the largest int64.
    terminal.type('\u007f\u007f\u007f9223372036854775807' + ENTER);
    await terminal.waitFor('Status');
    terminal.type(DOWN + DOWN + ENTER); // (none), available, pending
    const shown = await ended(terminal);
    expect(exitOf(shown), shown).toBe(0);
    expect(posts()).toBe(before + 1);
    expect(server.requests.at(-1)!.body).toBe(
      '{"name":"Rex the 2nd","categoryId":9223372036854775807,"status":"pending"}',
    );
    expect(shown).toContain('"categoryId": 9223372036854775807');
    // The terminal is as it was: echo and whole lines.
    expect(shown.slice(shown.indexOf('EXIT='))).toMatch(/(^|\s)icanon\b[\s\S]*(^|\s)echo\b/m);
  });

  it('asks only for what the flags left out, and no status when the flags gave the name and id', async () => {
    const before = posts();
    const terminal = session(['pets', 'add', '--name', 'Kit', '--status', 'sold', '-o', 'json']);
    await terminal.waitFor('Category id');
    terminal.type('3' + ENTER);
    const shown = await ended(terminal);
    expect(exitOf(shown), shown).toBe(0);
    expect(shown).not.toContain('Name');
    expect(posts()).toBe(before + 1);
    expect(server.requests.at(-1)!.body).toBe('{"name":"Kit","categoryId":3,"status":"sold"}');
  });

  for (const [key, label] of [
    ['\u0003', 'Ctrl-C'],
    ['\u0004', 'Ctrl-D'],
  ] as const) {
    it(`${label} at a question ends the run with 130, sending nothing`, async () => {
      const before = posts();
      const terminal = session(['pets', 'add']);
      await terminal.waitFor('Name');
      terminal.type('Half');
      terminal.type(key);
      const shown = await ended(terminal);
      expect(exitOf(shown), shown).toBe(130);
      expect(shown).toContain('nothing was sent');
      expect(posts()).toBe(before);
      expect(shown.slice(shown.indexOf('EXIT='))).toMatch(/(^|\s)icanon\b[\s\S]*(^|\s)echo\b/m);
    });
  }

  it('a signal that ends it at a question gives the terminal back', async () => {
    const terminal = session(['pets', 'add']);
    const pid = petstorePid(await terminal.waitFor('Name'));
    process.kill(pid, 'SIGHUP');
    const shown = await ended(terminal);
    expect(shown.slice(shown.indexOf('EXIT='))).toMatch(/(^|\s)icanon\b[\s\S]*(^|\s)echo\b/m);
  });

  it.each([
    ['--no-input', ['--no-input'], {}],
    ['PETSTORE_NO_INPUT', [], { PETSTORE_NO_INPUT: '1' }],
    ['CI', [], { CI: 'true' }],
  ])('asks nothing with %s: the usage error, exit 2', async (_how, flags, extra) => {
    const before = posts();
    const terminal = session(['pets', 'add', ...flags], extra);
    const shown = await ended(terminal);
    expect(exitOf(shown), shown).toBe(2);
    expect(shown).toContain('pets add needs --name and --category-id');
    expect(shown).not.toContain('Name');
    expect(posts()).toBe(before);
  });

  it('asks nothing in a pipe: exit 2, nothing sent', async () => {
    const before = posts();
    const result = await runCli(['pets', 'add'], { env: env() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('pets add needs --name and --category-id');
    expect(posts()).toBe(before);
  });
});

describe('message send at a terminal', () => {
  it('asks for the message when none is given', async () => {
    const terminal = session(['message', 'send', '-o', 'json']);
    await terminal.waitFor('Message');
    terminal.type('hello from a person' + ENTER);
    const shown = await ended(terminal);
    expect(exitOf(shown), shown).toBe(0);
    expect(server.requests.at(-1)!.body).toBe('{"message":"hello from a person"}');
  });
});

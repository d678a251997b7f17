import { describe, expect, it } from 'vitest';
import { freshHome } from '../helpers/run-cli.js';
import { petstoreLine, petstorePid, TerminalSession } from '../helpers/terminal.js';

/**
 * A hidden prompt holds the terminal raw; whatever signal ends petstore there, the terminal a
 * person gets back echoes what they type and reads whole lines again (`stty -a` after it).
 */
describe('the terminal after a hidden prompt', () => {
  // Every signal that ends a process: caught ones, faults (sent by kill) and SIGKILL.
  const signals: NodeJS.Signals[] = [
    'SIGHUP',
    'SIGQUIT',
    'SIGTERM',
    'SIGINT',
    'SIGUSR2',
    'SIGALRM',
    'SIGABRT',
    'SIGBUS',
    'SIGFPE',
    'SIGILL',
    'SIGSEGV',
    'SIGTRAP',
    'SIGSYS',
    'SIGVTALRM',
    'SIGPROF',
    'SIGKILL',
  ];
  it.each(signals)('is given back as it was when %s ends petstore', async (signal) => {
    const env = { PATH: process.env.PATH ?? '', HOME: freshHome() };
    const line = petstoreLine(
      ['auth', 'login', '--profile', 'staging', '--no-verify', '--insecure-storage'],
      // A guardian gives the terminal back a moment after a process that could not.
      'sleep 0.3; stty -a; echo STTY_DONE',
    );
    const session = new TerminalSession(line, env, 30_000);
    try {
      const shown = await session.waitFor('(input hidden)');
      // petstore makes the terminal raw before it shows the prompt; a moment more for builds
      // that did it the other way round (so this test fails on them).
      await new Promise((resolve) => setTimeout(resolve, 300));
      process.kill(petstorePid(shown), signal);
      const after = await session.waitFor(/EXIT=\d+[\s\S]*STTY_DONE/);
      const modes = after.slice(after.indexOf('EXIT='));
      expect(modes).toMatch(/(^|\s)icanon\b/);
      expect(modes).toMatch(/(^|\s)echo\b/);
      expect(modes).not.toMatch(/-icanon|-echo\b/);
    } finally {
      session.kill();
      await session.closed;
    }
  });
});

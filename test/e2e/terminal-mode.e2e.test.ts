import { describe, expect, it } from 'vitest';
import { freshHome } from '../helpers/run-cli.js';
import { petstoreLine, petstorePid, TerminalSession } from '../helpers/terminal.js';

/**
 * A hidden prompt holds the terminal raw; whatever catchable signal ends petstore there, the
 * terminal a person gets back echoes what they type and reads whole lines again (`stty -a`
 * after it, from a plain `sh`, which restores nothing itself). SIGKILL and real faults run no
 * code: what then happens is stated in docs/install.md, not tested here.
 */
describe('the terminal after a hidden prompt', () => {
  // Every signal that ends a process and that a process may catch.
  const signals: NodeJS.Signals[] = [
    'SIGHUP',
    'SIGQUIT',
    'SIGTERM',
    'SIGINT',
    'SIGUSR2',
    'SIGALRM',
    'SIGABRT',
    'SIGTRAP',
    'SIGSYS',
    'SIGVTALRM',
    'SIGPROF',
  ];
  it.each(signals)('is given back as it was when %s ends petstore', async (signal) => {
    const env = { PATH: process.env.PATH ?? '', HOME: freshHome() };
    const line = petstoreLine(
      ['auth', 'login', '--profile', 'staging', '--no-verify', '--insecure-storage'],
      'stty -a; echo STTY_DONE',
    );
    const session = new TerminalSession(line, env, 30_000);
    try {
      // petstore makes the terminal raw before it shows the prompt.
      const shown = await session.waitFor('(input hidden)');
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

import { spawn, type ChildProcess } from 'node:child_process';
import { BIN } from './run-cli.js';

/** A text for a POSIX shell, quoted. */
export const shellQuote = (text: string) => `'${text.replaceAll("'", "'\\''")}'`;

/**
 * A shell command on a real pseudo-terminal (util-linux `script`), typed into as a person
 * would, with what the terminal showed. Every session ends (its process group killed) within
 * `limitMs`, so no test leaves one running.
 */
export class TerminalSession {
  private shown = '';
  private readonly child: ChildProcess;
  private readonly waiters = new Set<() => void>();
  readonly closed: Promise<void>;

  constructor(command: string, env: Record<string, string>, limitMs = 60_000) {
    this.child = spawn('script', ['-qfec', command, '/dev/null'], {
      env: { TERM: 'xterm', ...env },
      detached: true,
    });
    this.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
      this.shown += chunk;
      for (const wake of [...this.waiters]) wake();
    });
    const timer = setTimeout(() => this.kill('SIGKILL'), limitMs);
    this.closed = new Promise((resolve) => {
      this.child.on('close', () => {
        clearTimeout(timer);
        for (const wake of [...this.waiters]) wake();
        resolve();
      });
    });
  }

  /** What the terminal has shown so far. */
  get output(): string {
    return this.shown;
  }

  /** Types text, as keys on the keyboard (`\r` is Enter, `\x03` Ctrl-C, `\x04` Ctrl-D). */
  type(text: string): void {
    this.child.stdin!.write(text);
  }

  /** Resolves once the terminal has shown text matching the pattern (after `from`). */
  async waitFor(pattern: RegExp | string, timeoutMs = 15_000, from = 0): Promise<string> {
    const matches = () =>
      typeof pattern === 'string'
        ? this.shown.indexOf(pattern, from) !== -1
        : pattern.test(this.shown.slice(from));
    const deadline = Date.now() + timeoutMs;
    while (!matches()) {
      if (this.child.exitCode !== null || Date.now() > deadline) {
        throw new Error(`the terminal never showed ${String(pattern)}; it showed:\n${this.shown}`);
      }
      await new Promise<void>((resolve) => {
        const wake = () => {
          this.waiters.delete(wake);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(wake, 100);
        this.waiters.add(wake);
      });
    }
    return this.shown;
  }

  /** Ends the whole session (script, the shell and whatever it runs). */
  kill(signal: NodeJS.Signals = 'SIGKILL'): void {
    try {
      process.kill(-this.child.pid!, signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * A shell line that runs petstore (this build, this Node) with these arguments on the
 * terminal, printing `PETSTORE_PID=n` first (so a test can signal it) and `EXIT=n` after.
 */
export function petstoreLine(args: string[], after = ''): string {
  const run = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
  const inner = `echo PETSTORE_PID=$$; exec ${run}`;
  return `sh -c ${shellQuote(inner)}; echo EXIT=$?${after ? `; ${after}` : ''}`;
}

/** The pid petstoreLine printed. */
export function petstorePid(shown: string): number {
  const match = /PETSTORE_PID=(\d+)/.exec(shown);
  if (!match) throw new Error(`no PETSTORE_PID in:\n${shown}`);
  return Number(match[1]);
}

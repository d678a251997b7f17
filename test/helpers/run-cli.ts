import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A fresh, empty home folder, so no test ever reads or writes the real user's config. */
export function freshHome(): string {
  return mkdtempSync(join(tmpdir(), 'petstore-home-'));
}

export const BIN = fileURLToPath(new URL('../../bin/petstore.js', import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Spawns the built petstore with the current Node and a controlled environment. Without a HOME
 * in `env` each run gets a new, empty one, so no test sees what another left behind.
 */
export function runCli(
  args: string[],
  options: {
    env?: Record<string, string | undefined>;
    input?: string;
    nodeArgs?: string[];
    /** stdin is /dev/null, as for a command run from cron or CI, instead of a pipe. */
    stdinFromDevNull?: boolean;
    /** Killed after this long (default 15 s). */
    limitMs?: number;
  } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const env: Record<string, string> = {};
    for (const [key, value] of Object.entries({
      PATH: process.env.PATH,
      HOME: freshHome(),
      ...options.env,
    })) {
      if (value !== undefined) env[key] = value;
    }
    const child = spawn(process.execPath, [...(options.nodeArgs ?? []), BIN, ...args], {
      env,
      stdio: [options.stdinFromDevNull ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.limitMs ?? 15_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin?.end(options.input ?? '');
  });
}

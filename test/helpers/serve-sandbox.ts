import { spawn } from 'node:child_process';
import { BIN, freshHome } from './run-cli.js';

export interface ServedSandbox {
  apiBaseUrl: string;
  quickstartUrl: string;
  stderr: () => string;
  /** Sends the signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Spawns `petstore sandbox serve --port 0 ...` and waits until it prints its URLs. */
export function serveSandbox(
  args: string[],
  env: Record<string, string> = {},
): Promise<ServedSandbox> {
  const child = spawn(process.execPath, [BIN, 'sandbox', 'serve', '--port', '0', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: freshHome(), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  // 'close': the process ended and its stderr was read to the end.
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`sandbox serve did not start: ${stderr}`));
    }, 10_000);
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
      stderr += chunk;
      const urls = bannerUrls(stderr);
      if (urls) {
        clearTimeout(timer);
        resolve({
          ...urls,
          stderr: () => stderr,
          stop: (signal = 'SIGTERM') => {
            child.kill(signal);
            return exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`sandbox serve exited with ${code}: ${stderr}`));
    });
  });
}

/**
 * The URLs the banner gives: as text (stderr a terminal, or --error-format text), or, stderr
 * a pipe with JSON errors (the default here: stdout is not a terminal), as one object.
 */
function bannerUrls(stderr: string): { apiBaseUrl: string; quickstartUrl: string } | undefined {
  for (const line of stderr.split('\n')) {
    if (!line.startsWith('{"sandbox":')) continue;
    const { sandbox } = JSON.parse(line) as {
      sandbox: { apiBaseUrl: string; quickstartUrl: string };
    };
    return { apiBaseUrl: sandbox.apiBaseUrl, quickstartUrl: sandbox.quickstartUrl };
  }
  const api = /API base URL:\s+(\S+)/.exec(stderr);
  const quickstart = /quickstart base URL:\s+(\S+)/.exec(stderr);
  if (!api || !quickstart || !stderr.includes('Stop with Ctrl-C.')) return undefined;
  return { apiBaseUrl: api[1]!, quickstartUrl: quickstart[1]! };
}

/** The requests `sandbox serve` logged (stderr a pipe: one JSON object each), in order. */
export function servedRequests(
  sandbox: ServedSandbox,
): { status: number | null; traceparent?: string }[] {
  return sandbox
    .stderr()
    .split('\n')
    .flatMap((line) =>
      line.startsWith('{"request":')
        ? [
            (JSON.parse(line) as { request: { status: number | null; traceparent?: string } })
              .request,
          ]
        : [],
    );
}

import { spawn } from 'node:child_process';
import { expect } from 'vitest';
import type { Loose } from './mcp-client.js';
import { BIN, freshHome, runCli } from './run-cli.js';
import { sandboxService } from './sandbox-service.js';
import { waitUntil } from './wait-until.js';

/** A home whose profile NAME points at the sandbox, with --agent-writes when given. */
export async function profileHome(url: string, name: string, agentWrites?: string) {
  const home = freshHome();
  const args = ['profile', 'set', name, '--base-url', url];
  if (agentWrites) args.push('--agent-writes', agentWrites);
  const set = await runCli(args, { env: { HOME: home } });
  expect(set.code, set.stderr).toBe(0);
  return home;
}

/** `petstore mcp` on raw pipes: lines in, lines out, as a client that is not the SDK. */
export function rawServer(env: Record<string, string | undefined>, args: string[] = []) {
  const child = spawn(process.execPath, [BIN, 'mcp', ...args], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  /** When (performance.now()) each part of stderr came in. */
  const stderrTimes: { at: number; length: number }[] = [];
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
    stderrTimes.push({ at: performance.now(), length: stderr.length });
  });
  const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
  const messages = () =>
    stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { id?: unknown; result?: Loose; error?: Loose });
  return {
    env,
    kill: (signal: NodeJS.Signals) => child.kill(signal),
    write: (text: string) => child.stdin.write(text),
    writeBytes: (bytes: Uint8Array) => child.stdin.write(bytes),
    send: (line: unknown) =>
      child.stdin.write(`${typeof line === 'string' ? line : JSON.stringify(line)}\n`),
    end: () => child.stdin.end(),
    stdout: () => stdout,
    stderr: () => stderr,
    /** When stderr first held `text` (performance.now()), if it has. */
    stderrSaidAt: (text: string) => {
      const end = stderr.indexOf(text);
      if (end < 0) return undefined;
      return stderrTimes.find((part) => part.length >= end + text.length)?.at;
    },
    messages,
    exited,
    /** Waits (bounded) for the answer with this id. */
    answer: async (id: unknown) => {
      const find = () => messages().find((message) => message.id === id);
      await waitUntil(() => find() !== undefined, `the answer to request ${String(id)}`);
      return find();
    },
  };
}

/** A raw server that may write to a sandbox answering each request after `latencyMs`. */
export async function slowWritingServer(latencyMs: number) {
  const sandbox = await sandboxService({ latencyMs: { min: latencyMs, max: latencyMs }, seed: 1 });
  const home = await profileHome(sandbox.url, 'staging', 'allow');
  const args = ['--profile', 'staging', '--allow-writes'];
  return { sandbox, raw: rawServer({ HOME: home, PETSTORE_API_KEY: sandbox.key }, args) };
}

export const OPENING = [
  {
    jsonrpc: '2.0',
    id: 1,
    method: 'initialize',
    params: {
      protocolVersion: '2025-06-18',
      capabilities: {},
      clientInfo: { name: 'raw', version: '1' },
    },
  },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
];

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach } from 'vitest';
import { BIN } from './run-cli.js';

/** How the test's person answers a confirmation: accept, decline, or a client that cannot ask. */
export type Person = 'accept' | 'decline' | 'cannot ask';

export type Era = 'legacy' | '2026-07-28';

export interface McpSession {
  client: Client;
  /** What the person was asked, each confirmation's message. */
  asked: string[];
  /** The server's stderr so far. */
  stderr(): string;
  /** Every line the server wrote to stdout, and every line the client sent (with `raw`). */
  serverLines(): string[];
  clientLines(): string[];
  /** The server process (killed with `kill`). */
  pid: number | null;
  close(): Promise<void>;
}

const open: McpSession[] = [];
afterEach(async () => {
  for (const session of open.splice(0)) await session.close().catch(() => undefined);
});

/**
 * The built `petstore mcp` driven by the official client SDK over stdio, as an agent's client
 * drives it. `raw`: the server runs behind tee, so every byte each way is kept for the test to
 * scan (the pid is then the shell's).
 */
export async function connectMcp(options: {
  env: Record<string, string | undefined>;
  args?: string[];
  person?: Person;
  raw?: boolean;
  /** The protocol revision: the 2025 handshake (the SDK's default) or 2026-07-28. */
  era?: Era;
}): Promise<McpSession> {
  const person = options.person ?? 'cannot ask';
  const env: Record<string, string> = {};
  for (const [name, value] of Object.entries({ PATH: process.env.PATH, ...options.env })) {
    if (value !== undefined) env[name] = value;
  }
  const logs = mkdtempSync(join(tmpdir(), 'petstore-mcp-'));
  const inLog = join(logs, 'in');
  const outLog = join(logs, 'out');
  writeFileSync(inLog, '');
  writeFileSync(outLog, '');
  const server = [process.execPath, BIN, 'mcp', ...(options.args ?? [])];
  const transport = new StdioClientTransport(
    options.raw
      ? {
          command: 'sh',
          args: [
            '-c',
            'i=$1; o=$2; shift 2; tee -a "$i" | "$@" | tee -a "$o"',
            'sh',
            inLog,
            outLog,
            ...server,
          ],
          env,
          stderr: 'pipe',
        }
      : { command: server[0]!, args: server.slice(1), env, stderr: 'pipe' },
  );
  let stderr = '';
  transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const client = new Client(
    { name: 'petstore-tests', version: '1.0.0' },
    {
      capabilities: person === 'cannot ask' ? {} : { elicitation: { form: {} } },
      versionNegotiation: {
        mode: options.era === 'legacy' || !options.era ? 'legacy' : { pin: options.era },
      },
    },
  );
  const asked: string[] = [];
  if (person !== 'cannot ask') {
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push((request.params as { message: string }).message);
      return Promise.resolve(
        person === 'accept' ? { action: 'accept', content: { send: true } } : { action: 'decline' },
      );
    });
  }
  await client.connect(transport);
  const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);
  const session: McpSession = {
    client,
    asked,
    stderr: () => stderr,
    serverLines: () => lines(outLog),
    clientLines: () => lines(inLog),
    pid: transport.pid,
    close: () => client.close(),
  };
  open.push(session);
  return session;
}

/**
 * A tool's JSON, walked loosely by assertions: a member that is not there fails the assertion
 * that reads it, which is what a test wants.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Loose = any;

/** A tool's structured answer, typed loosely for assertions. */
export async function call(
  session: McpSession,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; data: Loose; text: string }> {
  const result = await session.client.callTool({ name, arguments: args });
  const content = result.content as { type: string; text?: string }[];
  return {
    isError: result.isError === true,
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- see Loose
    data: (result.structuredContent ?? {}) as Loose,
    text: content.map((block) => block.text ?? '').join('\n'),
  };
}

import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client as ClientV1 } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport as StdioClientTransportV1 } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach } from 'vitest';
import { BIN } from './run-cli.js';

/**
 * How the test's person answers a confirmation: accept, decline, a client that cannot ask, or
 * one that says it can and then fails to show the form.
 */
export type Person = 'accept' | 'decline' | 'cannot ask' | 'fails to ask';

export type Era = 'legacy' | '2026-07-28';

/**
 * The client SDK's major: 1 (what most hosts and the Inspector embed; it checks a result's
 * structuredContent against the tool's output schema once it has read tools/list) or 2.
 */
export type Sdk = 1 | 2;

/** A tool as tools/list gives it. */
export interface ListedTool {
  name: string;
  title?: string | undefined;
  description?: string | undefined;
  inputSchema: Loose;
  outputSchema?: Loose;
  annotations?: Loose;
}

/** What the tests ask of a client, whichever SDK major it is. */
export interface AgentClient {
  listTools(): Promise<{ tools: ListedTool[] }>;
  callTool(
    params: { name: string; arguments: Record<string, unknown>; _meta?: Record<string, unknown> },
    options?: { signal?: AbortSignal; timeout?: number },
  ): Promise<Loose>;
  close(): Promise<void>;
}

export interface McpSession {
  client: AgentClient;
  sdk: Sdk;
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
  /** The client SDK's major; 2 unless asked (a 2026 era needs 2). */
  sdk?: Sdk;
}): Promise<McpSession> {
  const sdk = options.sdk ?? 2;
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
  const spawnWith = options.raw
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
        stderr: 'pipe' as const,
      }
    : { command: server[0]!, args: server.slice(1), env, stderr: 'pipe' as const };
  const capabilities = person === 'cannot ask' ? {} : { elicitation: { form: {} } };
  const asked: string[] = [];
  const answer = (message: string) => {
    asked.push(message);
    if (person === 'fails to ask') {
      // With what a careless host puts in an error: an escape sequence, and much of it.
      throw new Error(`the form could not be shown \u001b[31m${'x'.repeat(5000)}`);
    }
    return person === 'accept'
      ? { action: 'accept' as const, content: { send: true } }
      : { action: 'decline' as const };
  };
  let stderr = '';
  let client: AgentClient;
  let pid: number | null;
  if (sdk === 1) {
    const transport = new StdioClientTransportV1(spawnWith);
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const v1 = new ClientV1({ name: 'petstore-tests-sdk1', version: '1.0.0' }, { capabilities });
    if (person !== 'cannot ask') {
      v1.setRequestHandler(
        ElicitRequestSchema,
        (request) => new Promise((resolve) => resolve(answer(request.params.message))),
      );
    }
    await v1.connect(transport);
    // As hosts do: the tools first, which is when the 1.x client starts checking results.
    await v1.listTools();
    client = {
      listTools: () => v1.listTools(),
      // The 1.x client takes a result schema before its options.
      callTool: (params, options) => v1.callTool(params, undefined, options),
      close: () => v1.close(),
    };
    pid = transport.pid;
  } else {
    const transport = new StdioClientTransport(spawnWith);
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const v2 = new Client(
      { name: 'petstore-tests', version: '1.0.0' },
      {
        capabilities,
        versionNegotiation: {
          mode: options.era === 'legacy' || !options.era ? 'legacy' : { pin: options.era },
        },
      },
    );
    if (person !== 'cannot ask') {
      v2.setRequestHandler(
        'elicitation/create',
        (request) =>
          new Promise((resolve) =>
            resolve(answer((request.params as { message: string }).message)),
          ),
      );
    }
    await v2.connect(transport);
    await v2.listTools();
    client = {
      listTools: () => v2.listTools(),
      callTool: (params, options) => v2.callTool(params, options),
      close: () => v2.close(),
    };
    pid = transport.pid;
  }
  const lines = (path: string) => readFileSync(path, 'utf8').split('\n').filter(Boolean);
  const session: McpSession = {
    client,
    sdk,
    asked,
    stderr: () => stderr,
    serverLines: () => lines(outLog),
    clientLines: () => lines(inLog),
    pid,
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

/**
 * A failed call's error, read from its text as an agent reads it: a line for the person, then
 * `{"error": …}`. A failed call carries no structuredContent (see src/mcp/results.ts).
 */
export function errorOfResult(result: Loose): Loose {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  const text = content.map((block) => block.text ?? '').join('\n');
  const start = text.indexOf('\n\n{');
  if (start < 0) return undefined;
  return (JSON.parse(text.slice(start + 2)) as { error?: Loose }).error;
}

/** A tool's answer, typed loosely for assertions: its data, or its error, and its text. */
export async function call(
  session: McpSession,
  name: string,
  args: Record<string, unknown> = {},
): Promise<{ isError: boolean; data: Loose; error: Loose; text: string }> {
  const result = (await session.client.callTool({ name, arguments: args })) as {
    content: { type: string; text?: string }[];
    structuredContent?: unknown;
    isError?: boolean;
  };
  const isError = result.isError === true;
  return {
    isError,
    data: result.structuredContent ?? {},
    // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- see Loose
    error: isError && result.structuredContent === undefined ? errorOfResult(result) : undefined,
    text: result.content.map((block) => block.text ?? '').join('\n'),
  };
}

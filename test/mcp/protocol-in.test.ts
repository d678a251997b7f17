import { PassThrough, type Readable } from 'node:stream';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { protocolIn } from '../../src/mcp/protocol-in.js';

/** The line reader over a stream the test writes bytes to, with what it passed and refused. */
function reader(options: { accepting?: () => boolean } = {}) {
  const stdin = new PassThrough();
  const replies: { id: unknown; error: { code: number; message: string } }[] = [];
  const logs: string[] = [];
  const opened: unknown[] = [];
  const cancelled: unknown[] = [];
  const lines: Readable = protocolIn(stdin, {
    log: (line) => logs.push(line),
    reply: (line) => replies.push(JSON.parse(line) as (typeof replies)[number]),
    opened: (id) => opened.push(id),
    cancelled: (id) => cancelled.push(id),
    accepting: options.accepting ?? (() => true),
  });
  const passed: string[] = [];
  lines.setEncoding('utf8');
  let text = '';
  lines.on('data', (chunk: string) => {
    text += chunk;
    const parts = text.split('\n');
    text = parts.pop() ?? '';
    passed.push(...parts);
  });
  const ended = new Promise((resolve) => lines.on('end', resolve));
  return { stdin, passed, replies, logs, opened, cancelled, ended };
}

/** Writes `bytes` cut at `cuts` (offsets), each part its own write, then ends. */
async function feed(stdin: PassThrough, bytes: Buffer, cuts: number[]): Promise<void> {
  const points = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  let from = 0;
  for (const point of [...points, bytes.length]) {
    if (point > from) stdin.write(bytes.subarray(from, point));
    from = Math.max(from, point);
    // A turn of the event loop, so each part is its own read.
    await new Promise((resolve) => setImmediate(resolve));
  }
  stdin.end();
}

describe('the MCP line reader', () => {
  it('passes every message whole, with its text exact, however the bytes are cut', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.string({ unit: 'grapheme', maxLength: 40 }), { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (names, cuts) => {
          const messages = names.map((name, index) =>
            JSON.stringify({
              jsonrpc: '2.0',
              id: index + 1,
              method: 'tools/call',
              params: { name: 'add_pet', arguments: { name } },
            }),
          );
          const { stdin, passed, replies, ended } = reader();
          await feed(stdin, Buffer.from(messages.join('\n') + '\n'), cuts);
          await ended;
          expect(replies).toEqual([]);
          expect(passed).toEqual(messages);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('answers a line that is not UTF-8 with a parse error, and goes on with the next', async () => {
    await fc.assert(
      fc.asyncProperty(
        // Bytes no UTF-8 text holds, or a character cut short, inside a string.
        fc.constantFrom([0xff], [0xc3], [0xe2, 0x82], [0xed, 0xa0, 0x80], [0xf8, 0x88, 0x80]),
        fc.array(fc.nat(), { maxLength: 6 }),
        async (bad, cuts) => {
          const { stdin, passed, replies, logs, ended } = reader();
          const line = Buffer.concat([
            Buffer.from('{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"'),
            Buffer.from(bad),
            Buffer.from('"}}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n'),
          ]);
          await feed(stdin, line, cuts);
          await ended;
          expect(replies).toHaveLength(1);
          expect(replies[0]).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32700 } });
          expect(passed).toEqual(['{"jsonrpc":"2.0","id":2,"method":"ping"}']);
          expect(logs.join('\n')).toContain('not UTF-8');
        },
      ),
      { numRuns: 50 },
    );
  });

  it('refuses, by its id, a request holding half a character anywhere (a value or a name)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0xd800, max: 0xdfff }),
        fc.constantFrom('value', 'name', 'deep'),
        fc.string({ maxLength: 8 }),
        async (unit, where, around) => {
          const { stdin, passed, replies, ended } = reader();
          // As JSON carries it: a \\u escape of the lone half.
          const half = `${JSON.stringify(around).slice(1, -1)}\\u${unit.toString(16)}`;
          const args =
            where === 'value'
              ? `{"name":"${half}"}`
              : where === 'name'
                ? `{"${half}":1}`
                : `{"pets":[{"name":"ok"},{"name":"${half}"}]}`;
          const line = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"add_pet","arguments":${args}}}`;
          await feed(stdin, Buffer.from(`${line}\n{"jsonrpc":"2.0","id":8,"method":"ping"}\n`), []);
          await ended;
          expect(replies).toEqual([
            {
              jsonrpc: '2.0',
              id: 7,
              error: { code: -32600, message: expect.stringMatching(/lone surrogate/) as string },
            },
          ]);
          expect(passed).toEqual(['{"jsonrpc":"2.0","id":8,"method":"ping"}']);
        },
      ),
      { numRuns: 50 },
    );
  });

  it('says which request the client cancelled, and refuses new requests once the server is stopping', async () => {
    let accepting = true;
    const { stdin, passed, replies, opened, cancelled, ended } = reader({
      accepting: () => accepting,
    });
    stdin.write('{"jsonrpc":"2.0","id":7,"method":"tools/list"}\n');
    stdin.write('{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}}\n');
    await new Promise((resolve) => setImmediate(resolve));
    accepting = false;
    stdin.write('{"jsonrpc":"2.0","id":8,"method":"tools/list"}\n');
    stdin.end();
    await ended;
    expect(opened).toEqual([7]);
    expect(cancelled).toEqual([7]);
    expect(passed).toHaveLength(2);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ jsonrpc: '2.0', id: 8, error: { code: -32000 } });
  });
});

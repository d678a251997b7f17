// The floor for `petstore mcp`'s first tools/list: a Node process that answers each JSON-RPC
// request line with an empty result at once (boot and stdio only).
import { createInterface } from 'node:readline';

for await (const line of createInterface({ input: process.stdin })) {
  const { id } = JSON.parse(line);
  if (id !== undefined)
    process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', id, result: {} })}\n`);
}

// Spawns an MCP server over stdio (the command line after this script's name), sends the
// opening (initialize, initialized) and tools/list, and prints the milliseconds from the spawn
// to the tools/list answer. Used by `npm run bench -- --only mcp`.
import { spawn } from 'node:child_process';
import { clearTimeout, setTimeout } from 'node:timers';

const [command, ...args] = process.argv.slice(2);
const start = process.hrtime.bigint();
const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'ignore'], env: process.env });
const send = (message) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
send({
  id: 1,
  method: 'initialize',
  params: {
    protocolVersion: '2025-06-18',
    capabilities: {},
    clientInfo: { name: 'bench', version: '1' },
  },
});
send({ method: 'notifications/initialized' });
send({ id: 2, method: 'tools/list' });
let buffered = '';
child.stdout.setEncoding('utf8').on('data', (chunk) => {
  buffered += chunk;
  for (const line of buffered.split('\n').slice(0, -1)) {
    if (JSON.parse(line).id === 2) {
      process.stdout.write(`${Number(process.hrtime.bigint() - start) / 1e6}\n`);
      child.stdin.end();
      return;
    }
  }
});
const limit = setTimeout(() => child.kill('SIGKILL'), 20_000);
child.on('close', () => clearTimeout(limit));

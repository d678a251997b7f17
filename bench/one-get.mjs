// The floor a one-request command is measured against: one GET with node:http (node:https for
// an https:// URL, trusting NODE_EXTRA_CA_CERTS as petstore does), body printed.
// getBuiltinModule, not `import`: an ESM import of node:http evaluates its lazy getters, which
// load Node's internal undici and would make the floor slower than it needs to be.
import { Buffer } from 'node:buffer';
const url = process.argv[2];
const { get } = process.getBuiltinModule(url.startsWith('https:') ? 'node:https' : 'node:http');

get(url, { headers: { authorization: 'Bearer k', accept: 'application/json' } }, (res) => {
  const chunks = [];
  res.on('data', (chunk) => chunks.push(chunk));
  res.on('end', () => process.stdout.write(Buffer.concat(chunks)));
});

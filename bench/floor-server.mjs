// The floor a server is measured against: node:http (node:https when FLOOR_TLS_CERT and
// FLOOR_TLS_KEY name a certificate and its key) answering every request with a fixed body,
// as the sandbox would (201 for POST, 200 for GET). Prints its port, then serves.
import { Buffer } from 'node:buffer';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { createServer as createTlsServer } from 'node:https';

const pet = '{"id":1,"name":"Rex","categoryId":1}';
const list = `[${Array.from({ length: Number(process.argv[2] ?? 20) }, (_, i) => `{"id":${i + 1},"name":"pet-${i + 1}","categoryId":1,"status":"available"}`).join(',')}]`;
const handler = (req, res) => {
  const post = req.method === 'POST';
  req.resume();
  req.on('end', () => {
    const body = post ? pet : list;
    res.writeHead(post ? 201 : 200, {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
    });
    res.end(body);
  });
};
const { FLOOR_TLS_CERT: cert, FLOOR_TLS_KEY: key } = process.env;
const server =
  cert && key
    ? createTlsServer({ cert: readFileSync(cert), key: readFileSync(key) }, handler)
    : createServer(handler);
server.listen(0, '127.0.0.1', () => console.log(server.address().port));

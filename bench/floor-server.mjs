// The floor a server is measured against: node:http answering every request with a fixed
// body, as the sandbox would (201 for POST, 200 for GET). Prints its port, then serves.
import { Buffer } from 'node:buffer';
import { createServer } from 'node:http';

const pet = '{"id":1,"name":"Rex","categoryId":1}';
const list = `[${Array.from({ length: Number(process.argv[2] ?? 20) }, (_, i) => `{"id":${i + 1},"name":"pet-${i + 1}","categoryId":1,"status":"available"}`).join(',')}]`;
const server = createServer((req, res) => {
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
});
server.listen(0, '127.0.0.1', () => console.log(server.address().port));

// The floor a bulk add is measured against: COUNT POSTs of the same pets through undici's
// request, CONCURRENCY at once, each with its own Idempotency-Key, nothing journaled or
// printed. Usage: node bench/undici-posts.mjs BASE_URL FILE [CONCURRENCY]
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { Agent, request } from 'undici';

const [base, file, concurrency = '16'] = process.argv.slice(2);
const bodies = readFileSync(file, 'utf8').trimEnd().split('\n');
const dispatcher = new Agent({ connections: Number(concurrency) });
let next = 0;
async function worker() {
  while (next < bodies.length) {
    const body = bodies[next++];
    const answer = await request(`${base}/pets`, {
      method: 'POST',
      dispatcher,
      headers: {
        authorization: `Bearer ${process.env.PETSTORE_API_KEY}`,
        'content-type': 'application/json',
        'idempotency-key': randomUUID(),
      },
      body,
    });
    await answer.body.text();
    if (answer.statusCode !== 201) throw new Error(`POST /pets answered ${answer.statusCode}`);
  }
}
await Promise.all(Array.from({ length: Number(concurrency) }, worker));
await dispatcher.close();

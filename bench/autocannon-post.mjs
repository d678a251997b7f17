// autocannon's POST /pets rate, each request with its own Idempotency-Key (the work the
// sandbox does for a bulk add's requests), run as a process of its own so it can be pinned to
// a core (taskset). Prints the average rate and the number of requests. Usage: node bench/autocannon-post.mjs BASE KEY
import { randomUUID } from 'node:crypto';
import autocannon from 'autocannon';

const [base, key] = process.argv.slice(2);
const result = await autocannon({
  url: `${base}/pets`,
  method: 'POST',
  connections: 16,
  duration: 3,
  headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
  body: '{"name":"Rex","categoryId":1}',
  requests: [
    {
      setupRequest: (request) => ({
        ...request,
        headers: { ...request.headers, 'idempotency-key': randomUUID() },
      }),
    },
  ],
});
if (result.non2xx > 0 || result.errors > 0) {
  console.error(`${result.non2xx} non-2xx, ${result.errors} errors`);
  process.exit(1);
}
// The rate, and how many requests were sent (for the CPU each one cost).
console.log(`${result.requests.average} ${result.requests.total}`);

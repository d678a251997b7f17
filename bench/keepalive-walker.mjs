// The floor `pets list --all -o ndjson` is measured against: one keep-alive node:http
// connection that walks GET /pets by its Link rel="next", parses each page and prints each pet
// as an NDJSON line. Usage: node bench/keepalive-walker.mjs BASE_URL KEY
const http = process.getBuiltinModule('node:http');
const { Buffer } = process.getBuiltinModule('node:buffer');

const [base, key] = process.argv.slice(2);
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });

function get(url) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent, headers: { authorization: `Bearer ${key}` } }, (response) => {
        const chunks = [];
        response.on('data', (chunk) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ body: Buffer.concat(chunks).toString('utf8'), link: response.headers.link }),
        );
      })
      .on('error', reject);
  });
}

let url = `${base}/pets?limit=100`;
while (url !== undefined) {
  const { body, link } = await get(url);
  let lines = '';
  for (const pet of JSON.parse(body)) lines += `${JSON.stringify(pet)}\n`;
  if (!process.stdout.write(lines))
    await new Promise((resolve) => process.stdout.once('drain', resolve));
  const next = /<([^>]+)>;\s*rel="next"/.exec(link ?? '')?.[1];
  url = next === undefined ? undefined : new URL(next, url).href;
}
agent.destroy();

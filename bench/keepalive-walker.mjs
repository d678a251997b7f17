// The floor `pets list --all -o ndjson` is measured against: one keep-alive node:http
// connection that walks GET /pets by its Link rel="next", parses each page and prints each pet
// as an NDJSON line. Usage: node bench/keepalive-walker.mjs BASE_URL KEY [--exact]
// JSON.parse reads every number as a double (9007199254740993 prints as ...992); with --exact,
// integers past 2^53 are read from their source text and written back as they came, as
// petstore does, by the shortest means JavaScript has (a reviver, JSON.rawJSON).
const http = process.getBuiltinModule('node:http');
const { Buffer } = process.getBuiltinModule('node:buffer');

const [base, key, mode] = process.argv.slice(2);
const exact = mode === '--exact';
const reviver = (_key, value, context) =>
  typeof value === 'number' && !Number.isSafeInteger(value) && Number.isInteger(value)
    ? BigInt(context.source)
    : value;
const replacer = (_key, value) =>
  typeof value === 'bigint' ? JSON.rawJSON(value.toString()) : value;
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
  if (exact)
    for (const pet of JSON.parse(body, reviver)) lines += `${JSON.stringify(pet, replacer)}\n`;
  else for (const pet of JSON.parse(body)) lines += `${JSON.stringify(pet)}\n`;
  if (!process.stdout.write(lines))
    await new Promise((resolve) => process.stdout.once('drain', resolve));
  const next = /<([^>]+)>;\s*rel="next"/.exec(link ?? '')?.[1];
  url = next === undefined ? undefined : new URL(next, url).href;
}
agent.destroy();

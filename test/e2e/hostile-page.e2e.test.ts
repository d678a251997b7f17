import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

/**
 * Memory bounded by what is printed, not by how a hostile text is spelled: one page of 100,000
 * pets whose names each hold every kind of character that may hide a key (a bidi override, a
 * zero-width space, ESC, escapes) is printed within the heap a page of plain names needs. Each
 * kind alone takes the same path through the masking as all of them at once (redactor.ts's
 * mayHide), so all at once is the case run; test/core/redaction has each kind's masking.
 */

const PETS = 100_000;
const HEAP_MB = 256;
let server: TestServer;
const pages = new Map<string, string>();

beforeAll(async () => {
  for (const [kind, hidden] of Object.entries({
    // Every kind at once, and the run's key among them: split, escaped and encoded.
    mixed: '%1B[2J\u200b\u001b]8;;x\u001b\\\u009b31m\u00ad\\u001bsk_live_\u200bAbc123Def456Ghi%41',
    plain: 'é',
  })) {
    const pets = Array.from({ length: PETS }, (_, i) => ({
      id: i + 1,
      name: `Pet${hidden}${i}`,
      categoryId: 1,
      status: 'available',
    }));
    pages.set(kind, JSON.stringify(pets));
  }
  server = await startTestServer((request, response) => {
    // The base URL names the page: /KIND/v1/pets.
    const kind = request.url.split('/')[1] ?? 'plain';
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(pages.get(kind));
  });
});
afterAll(() => server.close());

describe('a page of 100,000 hostile names', () => {
  it.each(['mixed', 'plain'])(
    '(%s) is printed in every format within the heap a plain page needs (256 MB)',
    async (kind) => {
      for (const args of [
        ['pets', 'list', '-o', 'ndjson'],
        ['pets', 'list', '-o', 'table'],
        ['pets', 'list', '-o', 'json'],
        ['api', '/pets'],
      ]) {
        const result = await runCli(args, {
          env: {
            PETSTORE_BASE_URL: `${server.url}/${kind}/v1`,
            PETSTORE_API_KEY: 'sk_live_Abc123Def456Ghi',
          },
          nodeArgs: [`--max-old-space-size=${HEAP_MB}`],
          limitMs: 60_000,
        });
        expect(result.code, `${args.join(' ')}: ${result.stderr.slice(0, 300)}`).toBe(0);
        expect(result.stdout).not.toMatch(/Def456/);
      }
    },
    150_000,
  );
});

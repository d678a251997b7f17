import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { freshHome } from '../../helpers/run-cli.js';
import { useNockGuard } from '../../helpers/nock-guard.js';
import { stderrText } from '../../helpers/stderr-text.js';

const ORIGIN = 'https://api.petstore.test';
const env = {
  HOME: freshHome(),
  PETSTORE_BASE_URL: `${ORIGIN}/v1`,
  PETSTORE_API_KEY: 'sk_test_pages_1234',
};

useNockGuard();

/** How many 503 answers the paged service gave. */
let failures = 0;

const JSON_TYPE = { 'content-type': 'application/json' };

const pet = (id: number) => ({ id, name: `pet ${id}`, categoryId: 1 });
const ids = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

/** Answers GET /v1/pets?cursor=N with pets N.., linking the next page until `total`. */
function pagedService(total: number, options: { failAt?: number; pageSize?: number } = {}) {
  return nock(ORIGIN)
    .persist()
    .get('/v1/pets')
    .query(true)
    .reply((uri: unknown) => {
      // nock 15 hands over the intercepted request itself (a fetch Request), not its path.
      const url = new URL(uri instanceof Request ? uri.url : String(uri), ORIGIN);
      const size = Number(url.searchParams.get('limit') ?? options.pageSize ?? 20);
      const from = Number(url.searchParams.get('cursor') ?? 1);
      if (options.failAt !== undefined && from >= options.failAt) {
        failures++;
        return [
          503,
          { code: 'unavailable', message: 'down', status: 503 },
          { ...JSON_TYPE, 'retry-after': '0' },
        ];
      }
      const count = Math.max(0, Math.min(size, total - from + 1));
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (from + count <= total) {
        headers.link = `</v1/pets?limit=${size}&cursor=${from + count}>; rel="next"`;
      }
      return [200, JSON.stringify(ids(from, count).map(pet)), headers];
    });
}

async function list(args: string[]) {
  const io = fakeIO();
  const code = await main(['pets', 'list', '--retries', '0', ...args], io, env);
  return { code, out: io.out(), err: io.err() };
}

describe('pets list across pages', () => {
  it('--all follows Link rel="next" to the end, asking 100 a page', async () => {
    pagedService(234);
    const { code, out, err } = await list(['--all', '-o', 'ndjson']);
    expect(err).toBe('');
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines.map((line) => (JSON.parse(line) as { id: number }).id)).toEqual(ids(1, 234));
    expect(err).toBe('');
  });

  it('--json over many pages is one valid array', async () => {
    pagedService(45);
    const { out } = await list(['--all', '--limit', '10', '--json']);
    expect((JSON.parse(out) as { id: number }[]).map((p) => p.id)).toEqual(ids(1, 45));
  });

  it('--max-items N stops after N, at any N, and says more exist', async () => {
    pagedService(1000);
    const { code, out, err } = await list(['--max-items', '150', '--limit', '40', '--json']);
    expect(code).toBe(0);
    expect((JSON.parse(out) as unknown[]).length).toBe(150);
    expect(err).toBe('{"note":"Stopped at --max-items 150; the service has more."}\n');
  });

  it('says on stderr when one page is shown and the service has more', async () => {
    pagedService(30);
    const { out, err } = await list(['--limit', '10', '-o', 'ndjson']);
    expect(out.trimEnd().split('\n')).toHaveLength(10);
    expect(stderrText(err)).toMatch(/^Showing the first 10 pets; the service has more\. Use --all/);
  });

  it('a later page that fails after retries exits 6, having printed the earlier pages', async () => {
    pagedService(500, { failAt: 201 });
    failures = 0;
    const { code, out, err } = await list(['--all', '-o', 'csv', '--retries', '2']);
    expect(code).toBe(6);
    expect(failures).toBe(3);
    expect(out.trimEnd().split('\r\n')).toHaveLength(201);
    expect(err).toBe(
      'petstore: page 3 of the list failed after 200 pets were printed; the list is incomplete: down (unavailable, HTTP 503)\n',
    );
  });

  it('leaves a failed JSON array unclosed, so no parser takes it for the whole list', async () => {
    pagedService(500, { failAt: 101 });
    const { code, out, err } = await list(['--all', '--json']);
    expect(code).toBe(6);
    expect(() => JSON.parse(out) as unknown).toThrow();
    expect(out.startsWith('[{"id":1,')).toBe(true);
    expect(JSON.parse(err)).toMatchObject({ code: 'unavailable', status: 503, printed: 100 });
  });

  // Lines of TSV: a header, then one per pet printed. Nothing is printed twice.
  it.each([
    [
      'a page linking to itself',
      '</v1/pets?cursor=same>',
      3,
      /page 3 .* after 2 pets were printed/,
    ],
    [
      'the first page linking back to it',
      '</v1/pets?limit=100>',
      2,
      /page 2 .* after 1 pet was printed/,
    ],
  ])('detects %s, and stops with what it printed', async (_, link, lines, message) => {
    nock(ORIGIN)
      .persist()
      .get('/v1/pets')
      .query(true)
      .reply(200, JSON.stringify([pet(1)]), { ...JSON_TYPE, link: `${link}; rel="next"` });
    const { code, out, err } = await list(['--all', '-o', 'tsv']);
    expect(code).toBe(6);
    expect(out.trimEnd().split('\n')).toHaveLength(lines);
    expect(err).toMatch(message);
    expect(err).toContain('already given');
  });

  it('never follows a next link to another origin with the key', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .query(true)
      .reply(200, JSON.stringify([pet(1)]), {
        ...JSON_TYPE,
        link: '<https://evil.test/v1/pets?cursor=2>; rel="next"',
      });
    const { code, err } = await list(['--all', '-o', 'tsv']);
    expect(code).toBe(6);
    expect(err).toMatch(/another origin \(https:\/\/evil\.test\).*API key stays/);
  });

  it('a next link that is not a URL fails the walk (exit 6), never passes for the end', async () => {
    for (const target of ['http://[::1', 'http://a b/', '//', 'http://127.0.0.1:99999/v1']) {
      nock(ORIGIN)
        .get('/v1/pets')
        .query(true)
        .reply(200, JSON.stringify([pet(1)]), { ...JSON_TYPE, link: `<${target}>; rel="next"` });
      const { code, out, err } = await list(['--all', '-o', 'ndjson']);
      expect(code, target).toBe(6);
      expect(out.trimEnd().split('\n')).toHaveLength(1);
      expect(err).toContain('which is not a URL');
      expect(err).not.toContain('whole list');
    }
  });

  it('--all with one page that is not full and no Link says nothing: it is the whole list', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .query({ limit: '100' })
      .reply(200, JSON.stringify(ids(1, 3).map(pet)), JSON_TYPE);
    const { code, err } = await list(['--all', '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(err).toBe('');
  });

  it('--all with a full page and no Link warns that the service may hold more', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .query({ limit: '5' })
      .reply(200, JSON.stringify(ids(1, 5).map(pet)), JSON_TYPE);
    const { err } = await list(['--all', '--limit', '5', '-o', 'ndjson']);
    expect(stderrText(err)).toMatch(
      /no Link rel="next" after a full page of 5 pets: if it holds more/,
    );
  });

  it('--max-items met by a last page without Link says nothing more', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .query({ limit: '2' })
      .reply(200, JSON.stringify(ids(1, 2).map(pet)), JSON_TYPE);
    const { code, out, err } = await list(['--max-items', '2', '-o', 'ndjson']);
    expect(code).toBe(0);
    expect(out.trimEnd().split('\n')).toHaveLength(2);
    expect(err).toBe('');
  });

  it('CSV with --fields keeps a header, the order asked, and exact int64 digits', async () => {
    nock(ORIGIN)
      .get('/v1/pets')
      .query(true)
      .reply(
        200,
        '[{"id":9223372036854775807,"name":"Rex, \\"the\\"\\ndog","categoryId":1,"status":"sold"}]',
        JSON_TYPE,
      );
    const { out } = await list(['-o', 'csv', '--fields', 'name,id']);
    expect(out).toBe('name,id\r\n"Rex, ""the""\ndog",9223372036854775807\r\n');
  });

  it('refuses an unknown field before sending anything, listing the known ones', async () => {
    const { code, err } = await list(['--fields', 'id,colour', '-o', 'csv']);
    expect(code).toBe(2);
    expect(err).toContain('--fields: unknown field "colour"');
    expect(err).toContain('Known fields: id, name, categoryId, status');
  });
});

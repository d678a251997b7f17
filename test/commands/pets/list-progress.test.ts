import { describe, expect, it } from 'vitest';
import type { StopSignal } from '../../../src/core/io.js';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { FakeTransport } from '../../helpers/fake-transport.js';
import { freshHome } from '../../helpers/run-cli.js';

const BASE = 'https://api.petstore.test/v1';
const ERASE = '\r\u001b[2K';

/** Five pages of two pets; all but the first answered only once `ready` resolves. */
function slowPages(ready: Promise<void>): FakeTransport {
  const transport = new FakeTransport();
  for (let page = 0; page < 5; page++) {
    const path = page === 0 ? '/v1/pets?limit=100' : `/v1/pets?limit=100&cursor=${page}`;
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    if (page < 4) headers.link = `<${BASE}/pets?limit=100&cursor=${page + 1}>; rel="next"`;
    const pets = [1, 2].map((n) => ({ id: page * 2 + n, name: `p${n}`, categoryId: 1 }));
    transport.on('GET', path, async () => {
      if (page > 0) await ready;
      return { status: 200, headers, text: JSON.stringify(pets) };
    });
  }
  return transport;
}

describe('pets list --all progress and Ctrl-C', () => {
  it('erases the line, then ends as the signal would', async () => {
    const raised: { signal: StopSignal; stderr: string }[] = [];
    const base = fakeIO();
    const io = {
      ...base,
      raise: (signal: StopSignal) => raised.push({ signal, stderr: base.err() }),
    };
    let rows = 0;
    let signalled: () => void = () => undefined;
    const afterSignal = new Promise<void>((resolve) => (signalled = resolve));
    const write = io.stdout.write.bind(io.stdout);
    io.stdout = {
      ...io.stdout,
      write: (text: string) => {
        // Ctrl-C once the first page is out (not within the write); the next page only then.
        if (rows++ === 0) {
          setImmediate(() => {
            base.signal('SIGINT');
            signalled();
          });
        }
        return write(text);
      },
    };
    const env = {
      HOME: freshHome(),
      PETSTORE_BASE_URL: BASE,
      PETSTORE_API_KEY: 'sk_test_list_prog',
    };
    const args = ['pets', 'list', '--all', '-o', 'ndjson', '--progress', 'always'];
    await main([...args, '--error-format', 'text'], io, env, {
      transport: slowPages(afterSignal),
    });
    expect(raised.map((r) => r.signal)).toEqual(['SIGINT']);
    // When the signal is raised again, the progress line is gone from the screen.
    expect(raised[0]!.stderr).toContain('pets 2 · pages 1');
    expect(raised[0]!.stderr.endsWith(ERASE)).toBe(true);
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withStatusLine } from '../../src/core/status-line.js';
import { fakeIO } from '../helpers/fake-io.js';

const ERASE = '\r\u001b[2K';

describe('withStatusLine', () => {
  it('draws in place, clears before any other stderr write, draws again after it, clears once', async () => {
    const raw = fakeIO();
    const io = withStatusLine(raw);
    io.setStatus!('a');
    io.setStatus!('b');
    io.stderr.write('warning\n');
    io.stderr.write('second\n');
    io.setStatus!('c');
    await io.stderr.writeSettled('last\n');
    io.setStatus!(undefined);
    expect(raw.err()).toBe(
      `${ERASE}a${ERASE}b${ERASE}warning\n${ERASE}b${ERASE}second\n${ERASE}b${ERASE}c${ERASE}last\n${ERASE}c${ERASE}`,
    );
  });

  it('never touches stdout', () => {
    const raw = fakeIO();
    const io = withStatusLine(raw);
    io.setStatus!('drawing');
    io.stdout.write('data\n');
    expect(raw.out()).toBe('data\n');
  });

  it('clearing a line never drawn writes nothing', () => {
    const raw = fakeIO();
    withStatusLine(raw).setStatus!(undefined);
    expect(raw.err()).toBe('');
  });

  it('on a terminal shared with stdout, clears before stdout writes too', () => {
    const raw = fakeIO({ tty: true });
    const io = withStatusLine(raw);
    io.setStatus!('pets 2 · pages 1');
    io.stdout.write('{"id":1}\n');
    // Erased before the row, and drawn again below it, where it stays while the next page comes.
    expect(raw.err()).toBe(`${ERASE}pets 2 · pages 1${ERASE}${ERASE}pets 2 · pages 1`);
    expect(raw.out()).toBe('{"id":1}\n');
    // With stdout elsewhere (a file, a pipe), the line stays.
    const piped = fakeIO();
    const other = withStatusLine(piped);
    other.setStatus!('x');
    other.stdout.write('data\n');
    expect(piped.err()).toBe(`${ERASE}x`);
  });

  it('is cut to the terminal width, so erasing it leaves no wrapped rows behind', () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 120 }),
        fc.integer({ min: 2, max: 80 }),
        (text, columns) => {
          const raw = { ...fakeIO({ tty: true }), stderrColumns: columns };
          const io = withStatusLine(raw);
          io.setStatus!(text);
          const drawn = raw.err().slice(ERASE.length);
          expect(Array.from(drawn).length).toBeLessThan(columns);
        },
      ),
    );
  });
});

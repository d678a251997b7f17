import { describe, expect, it } from 'vitest';
import { withStatusLine } from '../../src/core/status-line.js';
import { fakeIO } from '../helpers/fake-io.js';

const ERASE = '\r\u001b[2K';

describe('withStatusLine', () => {
  it('draws in place, clears before any other stderr write, and clears once', async () => {
    const raw = fakeIO();
    const io = withStatusLine(raw);
    io.setStatus!('a');
    io.setStatus!('b');
    io.stderr.write('warning\n');
    io.stderr.write('second\n');
    io.setStatus!('c');
    await io.stderr.writeSettled('last\n');
    io.setStatus!(undefined);
    expect(raw.err()).toBe(`${ERASE}a${ERASE}b${ERASE}warning\nsecond\n${ERASE}c${ERASE}last\n`);
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
});

import { describe, expect, it } from 'vitest';
import { runKindOf } from '../src/load-program.js';

describe('runKindOf', () => {
  it('tells runs apart by their flags and first words, not by the values they give', () => {
    const kind = runKindOf(['pets', 'get', '7']);
    expect(runKindOf(['pets', 'get', '8'])).toBe(kind);
    expect(runKindOf(['--output=json', 'pets', 'list'])).toBe(
      runKindOf(['--output', 'pets', 'list']),
    );
    const others = [
      ['pets', 'list'],
      ['pets', 'get', '7', '--json'],
      ['pets', 'get', '--help'],
      ['pets', 'list', '-o', 'table'],
      ['pets', 'list', '-o', 'json'],
      ['profile', 'list'],
      ['pets'],
      [],
    ];
    const kinds = new Set([kind, ...others.map((argv) => runKindOf(argv))]);
    expect(kinds.size).toBe(others.length + 1);
  });

  it('is a nonzero 32-bit number, the header having 0 for none', () => {
    for (const argv of [[], ['a'], ['pets', 'list'], ['x'.repeat(1000), '--y']]) {
      const kind = runKindOf(argv);
      expect(Number.isInteger(kind) && kind > 0 && kind < 2 ** 32).toBe(true);
    }
  });
});

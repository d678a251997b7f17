import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runKindOf } from '../src/load-program.js';

describe('runKindOf', () => {
  it('tells runs apart by their flags and first two words', () => {
    const kinds = [
      ['pets', 'list'],
      ['pets', 'list', '--json'],
      ['pets', 'list', '--help'],
      ['pets', 'get', '7'],
      ['profile', 'list'],
      ['pets'],
      [],
    ].map((argv) => runKindOf(argv));
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  it('does not tell runs apart by the values they give, nor by the order of their flags', () => {
    const same = [
      [
        ['pets', 'get', '7'],
        ['pets', 'get', '8'],
      ],
      [
        ['message', 'send', 'hi'],
        ['message', 'send', 'bye'],
      ],
      [
        ['--profile', 'staging', 'pets', 'list'],
        ['--profile', 'prod', 'pets', 'list'],
      ],
      [
        ['pets', 'list', '-o', 'table'],
        ['pets', 'list', '-o', 'json'],
      ],
      [
        ['--query=length(@)', 'pets', 'list'],
        ['--query', 'fab', 'pets', 'list'],
      ],
      [
        ['pets', 'list', '-ojson'],
        ['pets', 'list', '-otable'],
      ],
      [
        ['pets', 'list', '-q', '--json'],
        ['pets', 'list', '--json', '-q'],
      ],
    ];
    for (const [one, other] of same)
      expect(runKindOf(one!), one!.join(' ')).toBe(runKindOf(other!));
  });

  it('is a nonzero 32-bit number, the header having 0 for none', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 6 }), (argv) => {
        const kind = runKindOf(argv);
        expect(Number.isInteger(kind) && kind > 0 && kind < 2 ** 32).toBe(true);
      }),
    );
  });
});

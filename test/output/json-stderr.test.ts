import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asJsonLines, jsonStderrIO, stderrLine } from '../../src/output/json-stderr.js';
import { fakeIO } from '../helpers/fake-io.js';

describe('stderr in JSON mode', () => {
  it('every line is a JSON object, whatever was written, and no text is lost', () => {
    fc.assert(
      fc.property(fc.array(fc.string({ unit: 'binary' }), { maxLength: 6 }), (writes) => {
        const out = writes.map(asJsonLines).join('');
        const lines = out.split('\n');
        expect(lines.pop()).toBe('');
        const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
        for (const value of parsed)
          expect(typeof value === 'object' && !Array.isArray(value)).toBe(true);
        // Each non-empty line written is there: as it was (an object), or as a note.
        const written = writes.flatMap((text) => text.split('\n')).filter((line) => line !== '');
        expect(parsed).toHaveLength(written.length);
        parsed.forEach((value, index) => {
          const line = written[index]!;
          if (value.note !== line) expect(JSON.parse(line)).toEqual(value);
        });
      }),
    );
  });

  it('passes objects through, and words warnings and notes as objects', () => {
    expect(asJsonLines('{"code":"usage","message":"x"}\n')).toBe(
      '{"code":"usage","message":"x"}\n',
    );
    expect(asJsonLines('HTTP 200\n\n[1]\n')).toBe('{"note":"HTTP 200"}\n{"note":"[1]"}\n');
    expect(stderrLine('warning', 'deprecated', true)).toBe('{"warning":"deprecated"}\n');
    expect(stderrLine('note', 'note: using the sandbox', true)).toBe(
      '{"note":"using the sandbox"}\n',
    );
    expect(stderrLine('warning', 'deprecated', false)).toBe('warning: deprecated\n');
  });

  it('frames only once the run is in JSON mode, and never at a terminal', () => {
    let json = false;
    const piped = fakeIO();
    const io = jsonStderrIO(piped, () => json);
    io.stderr.write('before\n');
    json = true;
    io.stderr.write('after\n');
    expect(piped.err()).toBe('before\n{"note":"after"}\n');
    const terminal = fakeIO({ tty: true });
    jsonStderrIO(terminal, () => true).stderr.write('? Name: ');
    expect(terminal.err()).toBe('? Name: ');
  });
});

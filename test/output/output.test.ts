import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../src/output/color.js';
import { resolveOutputFormat } from '../../src/output/format.js';
import { renderTable } from '../../src/output/table.js';
import { sanitizeLine } from '../../src/core/sanitize.js';
import { parseJson, stringifyJson } from '../../src/core/json.js';

describe('colour policy', () => {
  const tty = { noColorFlag: false, env: {}, isTTY: true };
  it('colours a terminal and never a pipe by default', () => {
    expect(colorEnabled(tty)).toBe(true);
    expect(colorEnabled({ ...tty, isTTY: false })).toBe(false);
  });
  it('honours NO_COLOR, --no-color, FORCE_COLOR=0 and TERM=dumb on a terminal', () => {
    expect(colorEnabled({ ...tty, env: { NO_COLOR: '1' } })).toBe(false);
    expect(colorEnabled({ ...tty, noColorFlag: true })).toBe(false);
    expect(colorEnabled({ ...tty, env: { FORCE_COLOR: '0' } })).toBe(false);
    expect(colorEnabled({ ...tty, env: { TERM: 'dumb' } })).toBe(false);
  });
  it('treats an empty NO_COLOR as unset, and FORCE_COLOR=1 as forcing colour', () => {
    expect(colorEnabled({ ...tty, env: { NO_COLOR: '' } })).toBe(true);
    expect(colorEnabled({ ...tty, isTTY: false, env: { FORCE_COLOR: '1' } })).toBe(true);
    expect(colorEnabled({ ...tty, env: { FORCE_COLOR: '1', NO_COLOR: '1' } })).toBe(false);
  });
});

describe('output format', () => {
  const base = { flag: undefined, json: false, env: undefined, stdoutIsTTY: true };
  it('is a table on a terminal and JSON when piped', () => {
    expect(resolveOutputFormat(base)).toBe('table');
    expect(resolveOutputFormat({ ...base, stdoutIsTTY: false })).toBe('json');
  });
  it('prefers the flag to PETSTORE_OUTPUT', () => {
    expect(resolveOutputFormat({ ...base, env: 'json', flag: 'ndjson' })).toBe('ndjson');
    expect(resolveOutputFormat({ ...base, env: 'ndjson' })).toBe('ndjson');
    expect(resolveOutputFormat({ ...base, json: true })).toBe('json');
  });
  it('rejects unknown formats and contradictions', () => {
    expect(() => resolveOutputFormat({ ...base, flag: 'yaml' })).toThrow(/--output/);
    expect(() => resolveOutputFormat({ ...base, env: 'xml' })).toThrow(/PETSTORE_OUTPUT/);
    expect(() => resolveOutputFormat({ ...base, json: true, flag: 'table' })).toThrow(/--json/);
  });
});

describe('tables', () => {
  const columns = [
    { header: 'id', value: (row: { id: bigint; name: string }) => row.id },
    { header: 'name', value: (row: { id: bigint; name: string }) => row.name },
  ];
  it('writes no escape codes without colour, even for hostile service text', () => {
    const text = renderTable(
      [{ id: 2n ** 63n - 1n, name: 'Rex\u001b[2J\u009b31m\nX' }],
      columns,
      false,
    );
    expect(text).not.toMatch(/[\u001b\u009b]/);
    expect(text).toContain('9223372036854775807');
    expect(text).toContain('Rex[2J31m X');
  });
  it('colours the header when colour is on', () => {
    expect(renderTable([], columns, true)).toContain('\u001b[1mid');
  });
});

describe('sanitizeLine', () => {
  it('removes C0, C1 and DEL characters', () => {
    expect(sanitizeLine('a\u0000b\u007fc\u0085d\u001b[0me')).toBe('abcd[0me');
  });

  it.each([
    [
      'bidirectional overrides and embeddings',
      'evil\u202Etxt.exe\u202A\u202B\u202C\u202D',
      'eviltxt.exe',
    ],
    ['bidirectional isolates and marks', '\u2066a\u2067b\u2068c\u2069\u200E\u200F\u061C', 'abc'],
    ['zero-width characters and the BOM', 'R\u200Be\u200Cx\u200D\u2060\uFEFF', 'Rex'],
    ['soft hyphens and tag characters', 'T\u00ADo\u{E0041}m', 'Tom'],
    ['line and paragraph separators', 'a\u2028b\u2029c', 'a b c'],
  ])('neutralises %s', (_kind, text, clean) => {
    expect(sanitizeLine(text)).toBe(clean);
  });
});

describe('JSON output', () => {
  it('escapes invisible and C1 characters, and stays the same value', () => {
    const value = { name: 'evil\u202Etxt\u009b31m\u2028\u200B\u{E0041}', id: 2n ** 63n - 1n };
    const text = stringifyJson(value);
    expect(text).toBe(
      '{"name":"evil\\u202etxt\\u009b31m\\u2028\\u200b\\udb40\\udc41","id":9223372036854775807}',
    );
    expect(parseJson(text)).toEqual(value);
  });
});

import { describe, expect, it } from 'vitest';
import { colorEnabled } from '../../src/output/color.js';
import { resolveOutputFormat } from '../../src/output/format.js';
import { renderTable } from '../../src/output/table.js';
import { sanitizeLine } from '../../src/core/sanitize.js';

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
});

import tableUtils from 'cli-table3/src/utils.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvField, tsvField } from '../../src/output/cells.js';
import { colorEnabled } from '../../src/output/color.js';
import { resolveOutputFormat } from '../../src/output/format.js';
import type { Column } from '../../src/output/columns.js';
import type { OutputFormat } from '../../src/output/format.js';
import { openRows, type RowsOptions } from '../../src/output/rows.js';
import { renderTable, TableWriter } from '../../src/output/table.js';
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

describe('tables that must give way', () => {
  it('cut what a person reads least (yieldsFirst) before the names they read', () => {
    const columns: Column<{ name: string; key: string }>[] = [
      { header: 'name', value: (row) => row.name, shrinkable: true },
      { header: 'key', value: (row) => row.key, shrinkable: true, yieldsFirst: true },
    ];
    const row = { name: 'Sir Reginald Fluffington', key: `pets-${'a'.repeat(32)}` };
    const fits = (width: number) => renderTable([row], columns, { color: false, width });
    // Room for the name whole: only the key is cut.
    const roomy = fits(50).split('\n')[1]!;
    expect(roomy).toContain('Sir Reginald Fluffington');
    expect(roomy).toMatch(/pets-a+…$/);
    expect(roomy.length).toBeLessThanOrEqual(50);
    // Less room: the key at its least, then the name too.
    const tight = fits(30).split('\n')[1]!;
    expect(tight).toMatch(/…\s+pets-aa…$/);
    expect(tight.length).toBeLessThanOrEqual(30);
  });
});

describe('tables', () => {
  const columns = [
    { header: 'id', value: (row: { id: bigint; name: string }) => row.id },
    { header: 'name', value: (row: { id: bigint; name: string }) => row.name },
  ];
  it('writes no escape codes without colour, even for hostile service text', () => {
    const text = renderTable([{ id: 2n ** 63n - 1n, name: 'Rex\u001b[2J\u009b31m\nX' }], columns, {
      color: false,
    });
    expect(text).not.toMatch(/[\u001b\u009b]/);
    expect(text).toContain('9223372036854775807');
    expect(text).toContain('Rex[2J31m X');
  });
  it('cuts a path column from its start, so the file name shows, whatever its letters', () => {
    const path = [{ path: '/srv/a very long folder/ünïcöde/spring-export-2026.csv' }];
    const text = renderTable(
      path,
      [
        {
          header: 'path',
          value: (row: { path: string }) => row.path,
          shrinkable: true,
          keepEnd: true,
        },
      ],
      { color: false, width: 24 },
    );
    const row = text.trimEnd().split('\n')[1]!;
    expect(row).toBe('…/spring-export-2026.csv');
  });
  it('colours the header when colour is on', () => {
    expect(renderTable([], columns, { color: true })).toContain('\u001b[1mID');
  });
  const pets = [
    { id: 1n, name: 'Rex', status: 'sold' },
    { id: 22n, name: 'A name far too long for a narrow terminal', status: undefined },
  ];
  const petColumns: Column<(typeof pets)[number]>[] = [
    { header: 'id', value: (row) => row.id },
    { header: 'name', value: (row) => row.name, shrinkable: true },
    { header: 'status', value: (row) => row.status, placeholder: '-' },
  ];
  it('is compact and aligned: no rules, two spaces between columns, no trailing blanks', () => {
    expect(renderTable(pets, petColumns, { color: false })).toBe(
      'ID  NAME                                       STATUS\n' +
        '1   Rex                                        sold\n' +
        '22  A name far too long for a narrow terminal  -\n',
    );
  });
  it('shows an absent value as a dim placeholder when colour is on', () => {
    expect(renderTable(pets, petColumns, { color: true })).toContain('\u001b[2m-\u001b[22m');
  });
  it('cuts long text with an ellipsis to fit a terminal, and never when piped', () => {
    const lines = renderTable(pets, petColumns, { color: false, width: 30 }).split('\n');
    expect(lines[2]).toBe('22  A name far too lo…  -');
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(30);
    expect(renderTable(pets, petColumns, { color: false })).toContain('narrow terminal');
  });
  it('cuts text of any script between whole characters, and fits the width in columns', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', minLength: 1, maxLength: 60 }),
        fc.integer({ min: 20, max: 60 }),
        (name, width) => {
          const rows = [{ id: 1n, name, status: 'sold' }];
          const text = renderTable(rows, petColumns, { color: false, width });
          expect(text.isWellFormed()).toBe(true);
          for (const line of text.split('\n')) {
            expect(tableUtils.strlen(line)).toBeLessThanOrEqual(width);
          }
        },
      ),
    );
  });
  it('a name that is one cluster wider than the column still shows its start', () => {
    const rows = [{ id: 1n, name: '\u1100'.repeat(19), status: 'sold' }];
    const line = renderTable(rows, petColumns, { color: false, width: 40 }).split('\n')[1]!;
    expect(line).toMatch(/1\s+\u1100+…/);
  });
  it('keeps later batches aligned to the first', () => {
    const table = new TableWriter(petColumns, { color: false });
    const first = table.rows([pets[1]!]);
    const second = table.rows([pets[0]!]);
    expect(first.split('\n')[1]!.indexOf('-')).toBe(second.indexOf('sold'));
    expect(second).not.toContain('NAME');
  });
});

describe('rows as they arrive', () => {
  type Row = { id: bigint; name: string; status?: string };
  const columns: Column<Row>[] = [
    { header: 'id', value: (row) => row.id },
    { header: 'name', value: (row) => row.name },
    { header: 'status', value: (row) => row.status },
  ];
  async function written(format: OutputFormat, batches: Row[][], extra: Partial<RowsOptions> = {}) {
    let out = '';
    const rows = await openRows(columns, {
      format,
      color: false,
      pretty: false,
      write: (text) => (out += text),
      ...extra,
    });
    for (const batch of batches) rows.write(batch);
    rows.end();
    return out;
  }
  const tricky = { id: 9223372036854775807n, name: 'Rex, "the" dog\nof\tdoom', status: 'sold' };

  it('writes one valid JSON array across batches, compact or pretty', async () => {
    const batches = [[tricky], [{ id: 2n, name: 'Tom' }]];
    const compact = await written('json', batches);
    expect(compact).toBe(
      '[{"id":9223372036854775807,"name":"Rex, \\"the\\" dog\\nof\\tdoom","status":"sold"},{"id":2,"name":"Tom"}]\n',
    );
    const pretty = await written('json', batches, { pretty: true });
    expect(parseJson(pretty)).toEqual(parseJson(compact));
    expect(pretty).toContain('[\n  {\n    "id": 9223372036854775807,');
    expect(await written('json', [])).toBe('[]\n');
  });

  it('keeps only the --fields, in their order, in JSON', async () => {
    const out = await written('ndjson', [[tricky, { id: 2n, name: 'Tom' }]], {
      fields: ['name', 'status'],
    });
    expect(out).toBe('{"name":"Rex, \\"the\\" dog\\nof\\tdoom","status":"sold"}\n{"name":"Tom"}\n');
  });

  it('writes RFC 4180 CSV that a spreadsheet reads back exactly', async () => {
    const out = await written('csv', [[tricky], [{ id: 2n, name: '=HYPERLINK("x")' }]]);
    expect(out).toBe(
      'id,name,status\r\n' +
        '9223372036854775807,"Rex, ""the"" dog\nof\tdoom",sold\r\n' +
        '2,"\'=HYPERLINK(""x"")",\r\n',
    );
    expect(parseCsv(out)).toEqual([
      ['id', 'name', 'status'],
      ['9223372036854775807', 'Rex, "the" dog\nof\tdoom', 'sold'],
      ['2', '\'=HYPERLINK("x")', ''],
    ]);
    expect(await written('csv', [])).toBe('id,name,status\r\n');
    // An empty page (a service may send one between others) adds no second header.
    expect(await written('tsv', [[], [{ id: 1n, name: 'A' }], []])).toBe(
      'id\tname\tstatus\n1\tA\t\n',
    );
  });

  it('strips terminal controls from CSV and TSV but keeps the text', async () => {
    const hostile = { id: 1n, name: 'A\u001b[2J\u202eB' };
    expect(await written('csv', [[hostile]])).toContain('\r\n1,A[2JB,\r\n');
    expect(await written('tsv', [[hostile]])).toContain('\n1\tA[2JB\t\n');
  });

  it('writes TSV with one line per row, escaping tabs, newlines and backslashes', async () => {
    const out = await written('tsv', [[{ ...tricky, name: 'a\\b\tc\nd' }]]);
    expect(out).toBe('id\tname\tstatus\n9223372036854775807\ta\\\\b\\tc\\nd\tsold\n');
  });
});

/** A strict RFC 4180 reader, as a spreadsheet reads: for checking what the writer produced. */
function parseCsv(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (quoted && char === '"' && text[i + 1] === '"') {
      field += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (!quoted && char === ',') {
      record.push(field);
      field = '';
    } else if (!quoted && char === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else {
      field += char;
    }
  }
  return records;
}

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

describe('tables of any size and content', () => {
  type Row = { id: number; name: string; status?: string };
  const columns: Column<Row>[] = [
    { header: 'id', value: (row) => row.id },
    { header: 'name', value: (row) => row.name, shrinkable: true },
    { header: 'status', value: (row) => row.status, placeholder: '-' },
  ];

  it('one batch of 200,000 rows is written, window by window, one line each', () => {
    const rows = Array.from({ length: 200_000 }, (_, i) => ({ id: i, name: `pet ${i}` }));
    const table = new TableWriter(columns, { color: false });
    let lines = 0;
    let writes = 0;
    table.write(rows, (text) => {
      writes++;
      lines += text.split('\n').length - 1;
    });
    expect(lines).toBe(200_001);
    // Written as it goes, not as one string of the whole table.
    expect(writes).toBeGreaterThan(100);
  });

  it('any text keeps every row one line, aligned, with nothing a terminal acts on', () => {
    const text = fc.string({ unit: 'binary', maxLength: 30 });
    fc.assert(
      fc.property(
        fc.array(
          fc.record({ id: fc.nat(), name: text, status: fc.option(text, { nil: undefined }) }),
          {
            maxLength: 40,
          },
        ),
        fc.option(fc.integer({ min: 20, max: 120 }), { nil: undefined }),
        (rows, width) => {
          const out = renderTable(rows, columns, { color: false, width });
          const lines = out.split('\n');
          expect(lines.pop()).toBe('');
          expect(lines).toHaveLength(rows.length + 1);
          expect(out).not.toMatch(/[\p{Cc}\p{Cf}\u2028\u2029](?<!\n)/u);
          // The status cell starts at the same display column on every line: the last cell
          // is never cut, so what comes before it is as wide as the header's.
          const at = lines[0]!.indexOf('STATUS');
          for (const [index, line] of lines.slice(1).entries()) {
            const status = rows[index]!.status;
            const shown = status === undefined ? '-' : sanitizeLine(status);
            if (shown === '') continue;
            expect(line.endsWith(shown)).toBe(true);
            expect(tableUtils.strlen(line) - tableUtils.strlen(shown)).toBe(at);
          }
        },
      ),
    );
  });
});

describe('CSV and TSV fields of any text', () => {
  // Every form a spreadsheet may take for = + - @: full-width, small, the minus sign.
  const starts = fc.constantFrom(
    ...['=', '+', '-', '@', '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20'],
    ...['\uFE66', '\uFE62', '\uFE63', '\uFE6B', '\u2212'],
  );
  // Every kind of blank and line break, and characters that show nothing.
  const blanks = fc.array(
    fc.constantFrom(
      ...[' ', '\t', '\r', '\n', '\u3000', '\u00a0', '\u2003', '\u2028', '\u2029', '\u1680'],
      ...['\u205f', '\u180e', '\u034f', '\u200b', '\ufeff', '\u0085'],
    ),
    { maxLength: 3 },
  );

  it('never leave a formula for a spreadsheet to run, after blanks or in full-width forms', () => {
    fc.assert(
      fc.property(blanks, starts, fc.string(), (lead, start, rest) => {
        const text = `${lead.join('')}${start}${rest}`;
        for (const field of [csvField(text).replace(/^"/, ''), tsvField(text)]) {
          expect(field.startsWith("'")).toBe(true);
        }
      }),
    );
  });

  it('keep a TSV row one line and a CSV row free of raw separators outside quotes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const tsv = tsvField(text);
        expect(tsv).not.toMatch(/[\t\n\r\u2028\u2029]/);
        const csv = csvField(text);
        expect(csv).not.toMatch(/[\u2028\u2029]/);
        if (/[\r\n,"]/.test(csv)) expect(csv).toMatch(/^"[^]*"$/);
      }),
    );
  });

  it('leave numbers as they are', () => {
    expect(csvField(-5)).toBe('-5');
    expect(tsvField(-5)).toBe('-5');
    expect(csvField('-5')).toBe("'-5");
  });
});

describe('a table with columns a person needs whole', () => {
  type Finding = { status: string; check: string; detail: string; fix: string };
  const columns: Column<Finding>[] = [
    { header: 'status', value: (row) => row.status },
    { header: 'check', value: (row) => row.check },
    { header: 'detail', value: (row) => row.detail, wrap: true },
    { header: 'fix', value: (row) => row.fix, wrap: true },
  ];
  const words = fc.array(fc.stringMatching(/^[a-zA-Z0-9./:-]{1,30}$/), {
    minLength: 1,
    maxLength: 14,
  });

  it('wraps them to fit the terminal, never cutting a word of them away', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ detail: words, fix: words }), { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 60, max: 140 }),
        (rows, width) => {
          const findings = rows.map((row) => ({
            status: 'warn',
            check: 'config file',
            detail: row.detail.join(' '),
            fix: row.fix.join(' '),
          }));
          const text = renderTable(findings, columns, { color: false, width });
          for (const line of text.trimEnd().split('\n')) {
            expect(tableUtils.strlen(line)).toBeLessThanOrEqual(width);
          }
          // Every character of every fix and detail is there, in order (only spaces moved).
          const squeezed = text.replace(/\s+/g, '');
          for (const finding of findings) {
            for (const part of [finding.detail, finding.fix]) {
              for (const word of part.split(' ')) expect(squeezed).toContain(word.slice(0, 8));
            }
          }
          expect(text).not.toContain('…');
        },
      ),
    );
  });

  it('when piped, keeps each row on one line', () => {
    const findings = [
      {
        status: 'fail',
        check: 'key',
        detail: 'none '.repeat(30),
        fix: 'petstore auth login '.repeat(5),
      },
    ];
    expect(renderTable(findings, columns, { color: false }).trimEnd().split('\n')).toHaveLength(2);
  });
});

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sandboxService } from '../helpers/sandbox-service.js';
import { runCli } from '../helpers/run-cli.js';

/** pets add's templates, and input read from a pipe in the format given or seen. */

/** A sandbox of its own in this process (stopped after each test): its URL and key. */
async function sandbox() {
  const { env } = await sandboxService();
  return { PETSTORE_BASE_URL: env.PETSTORE_BASE_URL, PETSTORE_API_KEY: env.PETSTORE_API_KEY };
}

describe('pets import --template, then --file', () => {
  it.each([
    ['csv', 'name,categoryId,status\r\n'],
    ['tsv', 'name\tcategoryId\tstatus\n'],
    ['ndjson', '{"name":"Rex","categoryId":1,"status":"available"}\n'],
  ])('%s: the template is the start of an input pets add reads', async (format, template) => {
    const printed = await runCli(['pets', 'import', '--template', format]);
    expect(printed).toMatchObject({ code: 0, stdout: template, stderr: '' });
    const env = await sandbox();
    const rows =
      format === 'csv'
        ? 'Tom,2,\r\n'
        : format === 'tsv'
          ? 'Tom\t2\t\n'
          : '{"name":"Tom","categoryId":2}\n';
    const added = await runCli(['pets', 'import', '-', '--input-format', format, '-o', 'ndjson'], {
      env,
      input: template + rows,
    });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('"name":"Tom"');
  });

  it('a JSON template reads back as one pet', async () => {
    const printed = await runCli(['pets', 'import', '--template', 'json']);
    expect(printed.code).toBe(0);
    const added = await runCli(['pets', 'import', '-', '--input-format', 'json', '-o', 'ndjson'], {
      env: await sandbox(),
      input: printed.stdout,
    });
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toMatch(
      /^\{"id":\d+,"name":"Rex","categoryId":1,"status":"available"\}\n$/,
    );
  });

  it('refuses --template with a file or another flag, and an unknown format', async () => {
    const withFile = await runCli(['pets', 'import', 'pets.csv', '--template', 'csv']);
    expect(withFile.code).toBe(2);
    expect(withFile.stderr).toContain(
      '--template prints a template and takes no file or other flag (got FILE)',
    );
    const withFlag = await runCli(['pets', 'import', '--template', 'csv', '--journal', 'j']);
    expect(withFlag.code).toBe(2);
    expect(withFlag.stderr).toContain('(got --journal)');
    expect(withFlag.stderr).toContain('Run: petstore pets import --template csv');
    const unknown = await runCli(['pets', 'import', '--template', 'xml']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/json, ndjson, csv, tsv/);
  });

  it('refuses UTF-16 and workbooks with how to convert them, sending nothing', async () => {
    const env = await sandbox();
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('name,categoryId\nRex,1\n', 'utf16le'),
    ]);
    const zip = Buffer.from('PK\u0003\u0004 a workbook');
    for (const [bytes, said] of [
      [utf16, 'is UTF-16 text, not UTF-8'],
      [zip, 'is a zip file (a spreadsheet workbook such as .xlsx?)'],
    ] as const) {
      const ran = await runCli(['pets', 'import', '-', '--input-format', 'csv'], {
        env,
        input: bytes.toString('latin1'),
      });
      expect(ran.code).toBe(2);
      expect(ran.stderr).toContain(said);
    }
  });

  it('a resume in CSV appends rows without a second header', async () => {
    const env = await sandbox();
    const dir = mkdtempSync(join(tmpdir(), 'petstore-csv-resume-'));
    const input = join(dir, 'p.csv');
    writeFileSync(input, `name,categoryId\nA,1\n${'x'.repeat(300)},2\nC,3\n`);
    const first = await runCli(
      [
        'pets',
        'import',
        input,
        '--fail-fast',
        '--concurrency',
        '1',
        '-o',
        'csv',
        '--journal',
        join(dir, 'j'),
      ],
      { env },
    );
    expect(first.code).toBe(5);
    expect(first.stdout).toMatch(/^id,name,categoryId,status\r\n\d+,A,1,\r\n$/);
    const resumed = await runCli(['pets', 'import', '--resume', join(dir, 'j'), '-o', 'csv'], {
      env,
    });
    expect(resumed.stdout).toMatch(/^\d+,C,3,\r\n$/);
  });
});

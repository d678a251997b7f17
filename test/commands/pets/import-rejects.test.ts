import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { configDir, historyFile } from '../../../src/config/paths.js';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
import { readPets } from '../../helpers/read-records.js';
import { sandboxService } from '../../helpers/sandbox-service.js';

/** A sheet as people export one: 40 good rows, and 3 bad ones among them. */
function sheet(): { path: string; folder: string } {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-rejects-'));
  const rows = ['Name,Category ID,Status'];
  for (let i = 0; i < 43; i++) {
    if (i === 5) rows.push(`Bad${i},x${i},available`);
    else if (i === 17) rows.push(`Pet${i},${i},adopted`);
    else if (i === 30) rows.push(`,${i},sold`);
    else rows.push(`Pet${i},${i},${i % 2 ? 'Available' : 'SOLD'}`);
  }
  const path = join(folder, 'pets.csv');
  writeFileSync(path, `${rows.join('\r\n')}\r\n`);
  return { path, folder };
}

describe('where the rejects may not go', () => {
  it.each([
    [() => '-', '--rejects - names no file'],
    [(home: string) => historyFile({ HOME: home }), 'where petstore keeps its own'],
    [
      (home: string) => join(configDir({ HOME: home }), 'rejects.csv'),
      'where petstore keeps its own',
    ],
  ])('%#: refused, nothing sent, nothing written', async (target, message) => {
    const { env, pets } = await sandboxService();
    const path = target(env.HOME);
    const io = fakeIO();
    expect(
      await main(['pets', 'import', sheet().path, '--skip-invalid', '--rejects', path], io, env),
    ).toBe(2);
    expect(io.err()).toContain(message);
    expect(existsSync(path)).toBe(false);
    expect(await pets()).toEqual([]);
  });
});

describe('pets import with invalid records', () => {
  it('sends nothing by default, each bad record named, and how to send the rest', async () => {
    const { env, pets } = await sandboxService();
    const io = fakeIO();
    expect(await main(['pets', 'import', sheet().path], io, env)).toBe(2);
    expect(io.err()).toContain('3 bad records: line 7, column 2 (categoryId)');
    expect(io.err()).toContain('line 19, column 3 (status)');
    expect(io.err()).toContain('line 32, column 1 (name)');
    expect(io.err()).toContain('--skip-invalid');
    expect(await pets()).toEqual([]);
  });

  it('with --skip-invalid --rejects: the good ones created, the bad ones to fix and import again', async () => {
    const { env, names } = await sandboxService();
    const { path, folder } = sheet();
    const rejects = join(folder, 'rej.csv');
    const io = fakeIO();
    const args = ['pets', 'import', path, '--skip-invalid', '--rejects', rejects];
    expect(await main([...args, '--error-format', 'json'], io, env)).toBe(0);
    expect(io.out().trimEnd().split('\n')).toHaveLength(40);
    expect(io.err()).toContain('3 invalid records set aside, not sent, written with why to');
    expect(io.err()).toContain('"rejected":3');
    const written = readFileSync(rejects, 'utf8').split('\r\n');
    expect(written[0]).toBe('Name,Category ID,Status,reason');
    expect(written.slice(1, 4).map((row) => row.split(',')[0])).toEqual(['Bad5', 'Pet17', '']);
    expect(written[1]).toContain('categoryId must be a whole number');
    // Fixed where they are, the reason column left in: the file imports as it is.
    writeFileSync(
      rejects,
      readFileSync(rejects, 'utf8')
        .replace('Bad5,x5', 'Bad5,5')
        .replace('adopted', 'pending')
        .replace(',30,sold', 'Thirty,30,sold'),
    );
    expect(await main(['pets', 'import', rejects], fakeIO(), env)).toBe(0);
    expect(await names()).toHaveLength(43);
  });

  it('journals the records set aside: a resume sets them aside too, journal show counts them', async () => {
    const { env, names } = await sandboxService();
    const { path } = sheet();
    const io = fakeIO();
    const args = ['pets', 'import', path, '--skip-invalid', '--error-format', 'json'];
    expect(await main(args, io, env)).toBe(0);
    const line = io
      .err()
      .split('\n')
      .find((text) => text.startsWith('{"journal":'))!;
    const { journal } = JSON.parse(line) as { journal: { batchId: string; resume: string } };
    // One resume command everywhere: no --skip-invalid to remember, the journal has it.
    expect(journal.resume).not.toContain('--skip-invalid');
    const resumed = fakeIO();
    const resume = ['pets', 'import', '--resume', journal.batchId, '--error-format', 'text'];
    expect(await main(resume, resumed, env)).toBe(0);
    expect(resumed.err()).toContain('nothing left to send');
    expect(resumed.err()).not.toContain('bad records');
    expect(await names()).toHaveLength(40);
    const shown = fakeIO();
    const show = ['journal', 'show', journal.batchId, '--error-format', 'text'];
    expect(await main(show, shown, env)).toBe(0);
    expect(shown.err()).toContain('its last run set 3 invalid record(s) aside, not sent');
  });

  it('keeps each good row its key when a bad row before it is fixed in place', async () => {
    const { env, names } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-fixed-'));
    const path = join(folder, 'pets.csv');
    writeFileSync(path, 'name,categoryId\nA,1\nB,x\nC,3\nD,4\n');
    const named = ['--batch-id', 'sheet-1', '--skip-invalid'];
    expect(await main(['pets', 'import', path, ...named], fakeIO(), env)).toBe(0);
    expect((await names()).sort()).toEqual(['A', 'C', 'D']);
    // The same batch again, row B fixed: C and D are the same records, not new pets.
    writeFileSync(path, 'name,categoryId\nA,1\nB,2\nC,3\nD,4\n');
    expect(await main(['pets', 'import', path, ...named], fakeIO(), env)).toBe(0);
    expect((await names()).sort()).toEqual(['A', 'B', 'C', 'D']);
  });

  it('refuses --rejects without --skip-invalid', async () => {
    const io = fakeIO();
    expect(await main(['pets', 'import', 'x.csv', '--rejects', 'r.csv'], io, {})).toBe(2);
    expect(io.err()).toContain('--rejects goes with --skip-invalid');
  });

  it('writes a rejected row as it was: a cell too many or too few stays so until edited', async () => {
    const { env, names } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-cells-'));
    const path = join(folder, 'pets.csv');
    writeFileSync(path, 'name,categoryId,status\r\nSmith, Jane,2,sold\r\nEd,4\r\nOk,1,sold\r\n');
    const rejects = join(folder, 'rej.csv');
    const args = ['pets', 'import', path, '--skip-invalid', '--rejects', rejects];
    expect(await main(args, fakeIO(), env)).toBe(0);
    const rows = readFileSync(rejects, 'utf8').split('\r\n');
    expect(rows[1]).toMatch(/^Smith, Jane,2,sold,"line 2: 4 cells/);
    expect(rows[2]).toMatch(/^Ed,4,"line 3: 2 cells/);
    // Imported again unedited, they are still refused: nothing more is created.
    expect(await main(['pets', 'import', rejects, '--skip-invalid'], fakeIO(), env)).toBe(2);
    expect(await names()).toEqual(['Ok']);
  });

  it('writes TSV rejects as -o tsv writes TSV: LF line ends, escapes, the reason last', async () => {
    const { env } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-tsv-rejects-'));
    const path = join(folder, 'pets.tsv');
    writeFileSync(path, 'name\tcategoryId\nA\t1\nB\tx\n');
    const rejects = join(folder, 'rej.tsv');
    const args = ['pets', 'import', path, '--skip-invalid', '--rejects', rejects];
    expect(await main(args, fakeIO(), env)).toBe(0);
    const written = readFileSync(rejects, 'utf8');
    expect(written).not.toContain('\r');
    expect(written.split('\n')[0]).toBe('name\tcategoryId\treason');
    expect(written.split('\n')[1]).toMatch(/^B\tx\tline 3: column 2 \(categoryId\)/);
  });

  it('keeps an NDJSON record given a key twice as it was written', async () => {
    const { env } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-twice-'));
    const path = join(folder, 'pets.ndjson');
    writeFileSync(path, '{"name":"Gu","name":"Gx","categoryId":6}\n{"name":"Ok","categoryId":1}\n');
    const rejects = join(folder, 'rej.ndjson');
    expect(
      await main(['pets', 'import', path, '--skip-invalid', '--rejects', rejects], fakeIO(), env),
    ).toBe(0);
    const written = readFileSync(rejects, 'utf8');
    expect(written).toMatch(/^\{"reason":"line 1: .*","name":"Gu","name":"Gx","categoryId":6\}\n$/);
  });

  it('refuses --rejects naming the input, through a link too, sending nothing', async () => {
    const { env, names } = await sandboxService();
    const { path, folder } = sheet();
    const link = join(folder, 'link.csv');
    symlinkSync(path, link);
    for (const rejects of [path, link]) {
      const io = fakeIO();
      const args = ['pets', 'import', path, '--skip-invalid', '--rejects', rejects];
      expect(await main(args, io, env)).toBe(2);
      expect(io.err()).toContain('--rejects names the input');
    }
    expect(readFileSync(path, 'utf8')).toContain('Pet42');
    expect(await names()).toEqual([]);
  });

  it('refuses to re-run a named batch whose records moved, and resumes reading alike', async () => {
    const { env, names } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-moved-'));
    const path = join(folder, 'd.csv');
    writeFileSync(path, 'name,categoryId\nA,1\nB,x\nC,3\nD,4\n');
    const first = fakeIO({ tty: true });
    const named = ['--batch-id', 'job-2', '--skip-invalid'];
    expect(await main(['pets', 'import', path, ...named], first, env)).toBe(0);
    // The command a run names to complete it needs no --skip-invalid: the journal has it.
    expect(first.err()).toMatch(
      /complete it with: petstore .*pets import --resume \S+ --retry-unknown\)/,
    );
    // The bad row deleted, not fixed in place: C and D would move onto other keys.
    writeFileSync(path, 'name,categoryId\nA,1\nC,3\nD,4\n');
    const again = fakeIO();
    expect(await main(['pets', 'import', path, '--batch-id', 'job-2'], again, env)).toBe(2);
    expect(again.err()).toContain('is not the record batch job-2 sent with its key before');
    expect((await names()).sort()).toEqual(['A', 'C', 'D']);
  });

  it('writes a rejected cell a spreadsheet would run as a formula guarded, as -o csv does', async () => {
    const { env } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-formula-'));
    const path = join(folder, 'pets.csv');
    const cells = ["=cmd|' /C calc'!A0", '+HYPERLINK("http://x")', '@SUM(1)', "'=already"];
    const rows = cells.map((cell) => `"${cell.replaceAll('"', '""')}",x`);
    writeFileSync(path, `name,categoryId\n${rows.join('\n')}\nOk,1\n`);
    const rejects = join(folder, 'rej.csv');
    const args = ['pets', 'import', path, '--skip-invalid', '--rejects', rejects];
    expect(await main(args, fakeIO(), env)).toBe(0);
    const written = readFileSync(rejects, 'utf8').split('\r\n').slice(1, 5);
    for (const row of written) expect(row).toMatch(/^"?'/);
    // Read back, each name is what the sheet meant: the guard taken off again.
    const { pets } = await readPets(readFileSync(rejects, 'utf8'), 'rej.csv', {
      skipInvalid: true,
    });
    expect(pets).toEqual([]);
    const back = readFileSync(rejects, 'utf8').replaceAll(',x,', ',1,');
    const read = await readPets(back, 'rej.csv');
    expect(read.pets.map((pet) => pet.name)).toEqual([
      "=cmd|' /C calc'!A0",
      '+HYPERLINK("http://x")',
      '@SUM(1)',
      '=already',
    ]);
  });

  it('an input whose every record is invalid: each written with why, exit 2, and what to do next', async () => {
    const { env, names } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-all-bad-'));
    const path = join(folder, 'pets.csv');
    writeFileSync(path, 'name,categoryId\nA,x\nB,y\n,3\n');
    const rejects = join(folder, 'rej.csv');
    const io = fakeIO({ tty: true });
    const args = ['pets', 'import', path, '--skip-invalid', '--rejects', rejects, '--no-color'];
    expect(await main(args, io, env)).toBe(2);
    const written = readFileSync(rejects, 'utf8').split('\r\n').filter(Boolean);
    expect(written).toHaveLength(4);
    expect(io.err()).toContain('all 3 records are invalid');
    expect(io.err()).toMatch(/^hint: Fix them in the rejects file/m);
    expect(io.err()).not.toMatch(/^hint: .*--skip-invalid/m);
    expect(await names()).toEqual([]);
  });

  it('never names a journal by its batch id: an id may be a key pasted by mistake', async () => {
    const { env } = await sandboxService();
    const folder = mkdtempSync(join(tmpdir(), 'petstore-batch-name-'));
    const path = join(folder, 'pets.csv');
    writeFileSync(path, 'name,categoryId\nA,1\n');
    const pasted = env.PETSTORE_API_KEY;
    expect(await main(['pets', 'import', path, '--batch-id', pasted], fakeIO(), env)).toBe(0);
    const journals = join(env.HOME, '.local', 'state', 'petstore', 'journals');
    const names = readdirSync(journals);
    expect(names.filter((name) => name.endsWith('.journal'))).toHaveLength(1);
    for (const name of names) expect(name).not.toContain(pasted);
  });
});

describe('a run refused before it sends', () => {
  it('leaves the rejects file an earlier run wrote as it was', async () => {
    const { env } = await sandboxService();
    const { path, folder } = sheet();
    const rejects = join(folder, 'rejects.csv');
    const first = fakeIO();
    const args = ['pets', 'import', path, '--skip-invalid', '--rejects', rejects];
    expect(await main(args, first, env)).toBe(0);
    // The person fixes some rows in it, then runs the first command again by mistake.
    const edited = `${readFileSync(rejects, 'utf8')}# my notes\n`;
    writeFileSync(rejects, edited);
    const again = fakeIO();
    expect(await main(args, again, env)).toBe(2);
    expect(again.err()).toContain('was imported in full before');
    expect(readFileSync(rejects, 'utf8')).toBe(edited);
    expect(again.err()).not.toContain('rejects.csv');
  });
});

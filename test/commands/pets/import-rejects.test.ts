import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { main } from '../../../src/main.js';
import { fakeIO } from '../../helpers/fake-io.js';
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
});

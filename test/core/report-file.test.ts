import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  createReadStream,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UsageError } from '../../src/core/errors.js';
import { writeReportFile } from '../../src/core/report-file.js';

const folder = () => mkdtempSync(join(tmpdir(), 'petstore-report-'));

describe('writeReportFile', () => {
  it('replaces a regular file whole, keeping its mode; creates one that is absent', async () => {
    const dir = folder();
    const file = join(dir, 'report.xml');
    writeFileSync(file, 'old');
    chmodSync(file, 0o640);
    await writeReportFile(file, '<new/>', 'JUnit report');
    expect(readFileSync(file, 'utf8')).toBe('<new/>');
    expect(statSync(file).mode & 0o777).toBe(0o640);
    await writeReportFile(join(dir, 'fresh.xml'), '<x/>', 'JUnit report');
    expect(readFileSync(join(dir, 'fresh.xml'), 'utf8')).toBe('<x/>');
    expect(readdirSync(dir).sort()).toEqual(['fresh.xml', 'report.xml']);
  });

  it('follows a link: its target is written and the link stays a link (dangling too)', async () => {
    const dir = folder();
    writeFileSync(join(dir, 'target.xml'), 'old');
    symlinkSync('target.xml', join(dir, 'link.xml'));
    await writeReportFile(join(dir, 'link.xml'), '<new/>', 'JUnit report');
    expect(lstatSync(join(dir, 'link.xml')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(dir, 'target.xml'), 'utf8')).toBe('<new/>');
    symlinkSync('later.xml', join(dir, 'dangling.xml'));
    await writeReportFile(join(dir, 'dangling.xml'), '<later/>', 'JUnit report');
    expect(readlinkSync(join(dir, 'dangling.xml'))).toBe('later.xml');
    expect(readFileSync(join(dir, 'later.xml'), 'utf8')).toBe('<later/>');
  });

  it('writes into a FIFO as it is, never replacing it by a file', async () => {
    const dir = folder();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const read = new Promise<string>((resolve, reject) => {
      let text = '';
      createReadStream(fifo, 'utf8')
        .on('data', (chunk) => (text += String(chunk)))
        .on('end', () => resolve(text))
        .on('error', reject);
    });
    await writeReportFile(fifo, '<through/>', 'JUnit report');
    expect(await read).toBe('<through/>');
    expect(lstatSync(fifo).isFIFO()).toBe(true);
  });

  it('writes into a device as it is (a null device made for the test, where allowed)', async () => {
    const dir = folder();
    const device = join(dir, 'null');
    try {
      execFileSync('mknod', [device, 'c', '1', '3'], { stdio: 'ignore' });
    } catch {
      return; // not permitted here (not root): the FIFO case covers writing in place
    }
    await writeReportFile(device, '<gone/>', 'JUnit report');
    expect(lstatSync(device).isCharacterDevice()).toBe(true);
  });

  it('refuses links that lead round in a loop, replacing none of them', async () => {
    const dir = folder();
    symlinkSync('loop2', join(dir, 'loop1'));
    symlinkSync('loop1', join(dir, 'loop2'));
    await expect(writeReportFile(join(dir, 'loop1'), '<x/>', 'JUnit report')).rejects.toThrow(
      'its links lead round in a loop',
    );
    expect(lstatSync(join(dir, 'loop1')).isSymbolicLink()).toBe(true);
    expect(lstatSync(join(dir, 'loop2')).isSymbolicLink()).toBe(true);
  });

  it('refuses a folder, exit 2, leaving nothing behind', async () => {
    const dir = folder();
    mkdirSync(join(dir, 'reports'));
    const attempt = writeReportFile(join(dir, 'reports'), '<x/>', 'JUnit report');
    await expect(attempt).rejects.toBeInstanceOf(UsageError);
    await expect(attempt).rejects.toThrow('is a folder');
    expect(readdirSync(dir)).toEqual(['reports']);
    expect(readdirSync(join(dir, 'reports'))).toEqual([]);
  });
});

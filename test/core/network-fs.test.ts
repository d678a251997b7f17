import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { networkFileSystem } from '../../src/core/network-fs.js';

describe('networkFileSystem', () => {
  it('finds none for a local folder, or a file not made yet in one', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-fs-'));
    expect(await networkFileSystem(folder)).toBeUndefined();
    expect(await networkFileSystem(join(folder, 'not-yet.journal'))).toBeUndefined();
  });

  it('names NFS, CIFS and the others by their statfs type, asking the folder for a file not made yet', async () => {
    const asked: string[] = [];
    const types: Record<string, number> = { '/mnt/nfs': 0x6969, '/mnt/smb': -11317950 };
    const statfs = (path: string) => {
      asked.push(path);
      const type = types[path];
      return type === undefined ? Promise.reject(new Error('ENOENT')) : Promise.resolve({ type });
    };
    expect(await networkFileSystem('/mnt/nfs/run.journal', { statfs })).toBe('NFS');
    expect(asked).toEqual(['/mnt/nfs/run.journal', '/mnt/nfs']);
    // CIFS's magic 0xFF534D42 as a signed 32-bit f_type.
    expect(await networkFileSystem('/mnt/smb', { statfs })).toBe('CIFS');
  });

  it('says nothing where statfs cannot tell one (not Linux)', async () => {
    const statfs = () => Promise.resolve({ type: 0x6969 });
    expect(await networkFileSystem('/mnt/nfs', { platform: 'darwin', statfs })).toBeUndefined();
  });
});

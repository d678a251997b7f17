import { statfs } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * File systems whose locks a process on one machine cannot trust to keep out a process on
 * another (SQLite's "how to corrupt" list; flock(2) over NFS alike), by their Linux magic
 * numbers (statfs(2)'s f_type).
 */
const NETWORK_FILE_SYSTEMS = new Map<number, string>([
  [0x6969, 'NFS'],
  [0x517b, 'SMB'],
  [0xff534d42, 'CIFS'],
  [0xfe534d42, 'SMB2'],
  [0x73757245, 'Coda'],
  [0x5346414f, 'AFS'],
  [0x01021997, '9P'],
  [0x00c36400, 'Ceph'],
  [0x0bd00bd0, 'Lustre'],
  [0x65735546, 'FUSE (sshfs and others)'],
]);

/**
 * The network file system `path` is on (the folder it is in, when the file is not there yet),
 * where Node can tell: on Linux, by statfs; elsewhere, or when it cannot be asked, undefined.
 */
export async function networkFileSystem(
  path: string,
  machine: {
    platform?: NodeJS.Platform;
    statfs?: (path: string) => Promise<{ type: number }>;
  } = {},
): Promise<string | undefined> {
  if ((machine.platform ?? process.platform) !== 'linux') return undefined;
  const ask = machine.statfs ?? statfs;
  const info = await ask(path).catch(() => ask(dirname(path)).catch(() => undefined));
  // f_type may come negative (a signed long): its bits are what name the file system.
  return info === undefined ? undefined : NETWORK_FILE_SYSTEMS.get(info.type >>> 0);
}

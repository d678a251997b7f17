import { closeSync, openSync, readSync, statSync } from 'node:fs';
import { endianness } from 'node:os';

const WAL_HEADER_BYTES = 32;
const FRAME_HEADER_BYTES = 24;
/** The WAL index header (SQLite's WalIndexHdr), as the first 48 bytes of the -shm file. */
const INDEX_HEADER_BYTES = 48;

function readAt(path: string, length: number): Buffer | undefined {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch {
    return undefined;
  }
  try {
    const buffer = Buffer.alloc(length);
    const read = readSync(fd, buffer, 0, length, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/**
 * Whether the write-ahead log still holds what SQLite's shared index says it holds: as many
 * frames as the index counts, under the same salts. A log truncated or written over in place
 * (`: > db-wal`, `cp other db-wal`), which keeps its inode, fails this: the commits in it are
 * gone, and SQLite would go on writing after them. Any process sharing the file keeps the
 * index current, so its checkpoints do not count as a loss. Undefined: nothing lost; else why.
 */
function lossNow(database: string): string | undefined {
  const index = readAt(`${database}-shm`, INDEX_HEADER_BYTES);
  if (!index || index.length < INDEX_HEADER_BYTES) return undefined;
  const little = endianness() === 'LE';
  const u32 = (at: number) => (little ? index.readUInt32LE(at) : index.readUInt32BE(at));
  const frames = u32(16);
  if (frames === 0) return undefined;
  const sizeField = little ? index.readUInt16LE(14) : index.readUInt16BE(14);
  const pageSize = sizeField === 1 ? 65536 : sizeField;
  const header = readAt(`${database}-wal`, WAL_HEADER_BYTES);
  const needed = WAL_HEADER_BYTES + frames * (pageSize + FRAME_HEADER_BYTES);
  if (!header || header.length < WAL_HEADER_BYTES) {
    return `it lost its header and the ${frames} frames the index counts`;
  }
  const magic = header.readUInt32BE(0);
  if (magic !== 0x377f0682 && magic !== 0x377f0683) return 'its header is not a write-ahead log';
  // SQLite copies the salts' bytes from the log's header into the index as they are.
  if (!header.subarray(16, 24).equals(index.subarray(32, 40))) {
    return 'it is not the log the database was writing (other salts)';
  }
  // Read after the index: a log another process grew since is larger, never smaller.
  const size = statSync(`${database}-wal`, { throwIfNoEntry: false })?.size ?? 0;
  return size < needed ? 'it was cut short' : undefined;
}

/**
 * lossNow, confirmed: another process sharing the file may be in the middle of a commit or of
 * starting the log over (its header and the index are not written at once), so a loss counts
 * only if it is still there a little later, three times in a row.
 */
export function walLoss(database: string): string | undefined {
  let loss = lossNow(database);
  for (let look = 0; look < 3 && loss !== undefined; look++) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 20);
    loss = lossNow(database);
  }
  return loss;
}

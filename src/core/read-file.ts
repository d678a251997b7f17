import { closeSync, constants, fstatSync, openSync, readSync, type Stats } from 'node:fs';

/**
 * Why a file petstore reads cannot be read as one: it is no regular file (a FIFO would block
 * the reader, a device such as /dev/zero never ends), or it holds more than its cap, counted
 * as it is read (a size from stat can change, or be 0 for what grows).
 */
export class FileShapeError extends Error {
  constructor(
    readonly path: string,
    readonly why: string,
  ) {
    super(`${path} ${why}`);
  }
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a named pipe (FIFO)';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice()) return 'a character device';
  if (info.isBlockDevice()) return 'a block device';
  return 'not a regular file';
}

function describe(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MiB` : `${bytes} bytes`;
}

/**
 * A descriptor of the regular file at `path`, following links, for reading. Opened without
 * blocking (a FIFO's open waits for a writer otherwise) and checked on the open descriptor, so
 * what is checked is what is read. Throws FileShapeError, or the system's error (ENOENT).
 */
export function openRegularFile(path: string): number {
  const fd = openSync(path, constants.O_RDONLY | constants.O_NONBLOCK | constants.O_NOCTTY);
  const info = fstatSync(fd);
  if (info.isFile()) return fd;
  closeSync(fd);
  throw new FileShapeError(path, `is ${kindOf(info)}, not a regular file`);
}

/**
 * The bytes of a regular file of at most `maxBytes`, following links. Opened without blocking
 * (a FIFO's open waits for a writer otherwise) and checked on the open descriptor, so what is
 * checked is what is read. Throws FileShapeError, or the system's error (ENOENT, EACCES).
 */
export function readRegularFile(path: string, maxBytes: number): Buffer {
  const fd = openRegularFile(path);
  try {
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(1024 * 1024, maxBytes + 1 - total));
      const read = readSync(fd, chunk, 0, chunk.length, null);
      if (read === 0) break;
      chunks.push(read === chunk.length ? chunk : chunk.subarray(0, read));
      total += read;
      if (total > maxBytes) {
        throw new FileShapeError(path, `is larger than ${describe(maxBytes)}`);
      }
    }
    return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, total);
  } finally {
    closeSync(fd);
  }
}

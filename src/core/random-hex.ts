import { randomBytes } from 'node:crypto';
import { closeSync, openSync, readSync } from 'node:fs';

/**
 * `bytes` random bytes from the system's secure generator, as hex. Read from /dev/urandom where
 * there is one: loading node:crypto for its randomBytes costs a command about 7 ms, more than
 * the rest of starting the embedded sandbox. Elsewhere (Windows), node:crypto.
 */
export function randomHex(bytes: number): string {
  const buffer = Buffer.alloc(bytes);
  let fd: number | undefined;
  try {
    fd = openSync('/dev/urandom', 'r');
    for (let filled = 0; filled < bytes;) {
      const read = readSync(fd, buffer, filled, bytes - filled, null);
      if (read === 0) throw new Error('/dev/urandom ended');
      filled += read;
    }
    return buffer.toString('hex');
  } catch {
    return randomBytes(bytes).toString('hex');
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

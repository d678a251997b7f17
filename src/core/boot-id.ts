import { readFileSync } from 'node:fs';

/**
 * This boot of the machine (Linux: /proc/sys/kernel/random/boot_id), or undefined where none
 * can be told. A file written before a kill -9 of its writer is still whole after it, within
 * the same boot; across a power loss (a new boot) what was not synced to disk may be lost.
 */
export function bootId(): string | undefined {
  try {
    const id = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return id === '' ? undefined : id;
  } catch {
    return undefined;
  }
}

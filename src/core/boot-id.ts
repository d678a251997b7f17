import { readFileSync } from 'node:fs';
import { uptime } from 'node:os';

/**
 * This boot of the machine, or undefined where none can be told. A file written before a kill
 * -9 of its writer is still whole after it, within the same boot; across a power loss (a new
 * boot) what was not synced to disk may be lost. Linux names each boot
 * (/proc/sys/kernel/random/boot_id); elsewhere (macOS, Windows, a Linux without /proc) the
 * boot is told by when it happened, to ten seconds: the clock now less the time since boot.
 * A clock set far enough between two runs makes the same boot look like another: its queued
 * records then count as unknown, the safe side (sent again with their own keys).
 */
export function bootId(
  machine: { bootIdFile?: string; uptime?: () => number; now?: () => number } = {},
): string | undefined {
  try {
    const file = machine.bootIdFile ?? '/proc/sys/kernel/random/boot_id';
    const id = readFileSync(file, 'utf8').trim();
    if (id !== '') return id;
  } catch {
    // No /proc here: the boot's time instead.
  }
  const seconds = (machine.uptime ?? uptime)();
  if (!Number.isFinite(seconds) || seconds <= 0) return undefined;
  return `booted-${Math.round(((machine.now ?? Date.now)() - seconds * 1000) / 10_000)}`;
}

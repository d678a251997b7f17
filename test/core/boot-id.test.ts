import { describe, expect, it } from 'vitest';
import { bootId } from '../../src/core/boot-id.js';

describe('bootId', () => {
  it('names this boot, the same on every call', () => {
    const first = bootId();
    expect(first).toEqual(expect.any(String));
    expect(first).not.toBe('');
    expect(bootId()).toBe(first);
  });

  it('without a boot id file, tells the boot by its time: the same boot later, another after a reboot', () => {
    const noFile = '/nonexistent/boot_id';
    const at = (now: number, uptime: number) =>
      bootId({ bootIdFile: noFile, now: () => now, uptime: () => uptime });
    const booted = 1_800_000_000_000;
    const first = at(booted + 60_000, 60);
    expect(first).toMatch(/^booted-\d+$/);
    // An hour on, the same boot (a second of jitter between the two clocks changes nothing).
    expect(at(booted + 3_660_000 + 400, 3_660)).toBe(first);
    // Rebooted a minute later: another.
    expect(at(booted + 120_000, 30)).not.toBe(first);
    expect(bootId({ bootIdFile: noFile, uptime: () => Number.NaN })).toBeUndefined();
  });
});

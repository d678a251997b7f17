import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Env } from '../core/io.js';
import { configDir } from './paths.js';
import { BUILTIN_PROFILES } from './profiles.js';

/** The hidden command the completion scripts run for `--profile <TAB>`. */
export const COMPLETE_PROFILES = ['__complete', 'profiles'] as const;

/**
 * Every profile name, for shell completion: the built-in ones and those in config.json, read
 * directly (no conf, no schema checks, no network), so a TAB costs one small file read. A file
 * that is missing or damaged yields the built-in names: completion never prints an error.
 */
export function profileNamesForCompletion(env: Env): string[] {
  let stored: string[] = [];
  try {
    const data = JSON.parse(readFileSync(join(configDir(env), 'config.json'), 'utf8')) as {
      profiles?: unknown;
    };
    if (typeof data.profiles === 'object' && data.profiles !== null) {
      stored = Object.keys(data.profiles).filter((name) => /^[\w-]+$/.test(name));
    }
  } catch {
    // Missing or unreadable: the built-in names still complete.
  }
  return [...new Set([...BUILTIN_PROFILES, ...stored.sort()])];
}

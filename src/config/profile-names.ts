import { join } from 'node:path';
import type { Env } from '../core/io.js';
import { readRegularFile } from '../core/read-file.js';
import { CONFIG_FILE_NAME, configDir } from './paths.js';
import { profileNames } from './profiles.js';
import { emptyConfig } from './schema.js';

/**
 * Every profile name, for shell completion (`petstore __complete profiles`): the built-in ones
 * and those in config.json, read directly (no conf, no schema checks, no network), so a TAB
 * costs one small file read. A file that is missing or damaged yields the built-in names:
 * completion never prints an error. Names a shell would split or expand are left out.
 */
export function profileNamesForCompletion(env: Env): string[] {
  const config = emptyConfig();
  try {
    // No regular file (a FIFO would hang the TAB), or too large: the built-in names only.
    const text = readRegularFile(join(configDir(env), CONFIG_FILE_NAME), 1024 * 1024).toString();
    const data = JSON.parse(text) as {
      profiles?: unknown;
    };
    if (typeof data.profiles === 'object' && data.profiles !== null) {
      config.profiles = data.profiles as typeof config.profiles;
    }
  } catch {
    // Missing or unreadable: the built-in names still complete.
  }
  return profileNames(config).filter((name) => /^[\w-]+$/.test(name));
}

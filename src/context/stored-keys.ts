import { ConfigStore } from '../config/store.js';
import { configDir } from '../config/paths.js';
import type { Env } from '../core/io.js';
import type { SecretRedactor } from '../core/redaction/index.js';

/**
 * Adds the keys and passwords the config file holds to the run's redactor, for an error met
 * before any command read them (a usage error quoting a word of the command line); never fails.
 */
export async function protectStoredKeys(env: Env, redactor: SecretRedactor): Promise<void> {
  const store = new ConfigStore(
    configDir(env),
    () => undefined,
    (keys, passwords) => {
      keys.forEach((key) => redactor.add(key));
      passwords.forEach((password) => redactor.add(password, { hidden: true }));
    },
  );
  // A config that cannot be read holds no key this run could show.
  await store.read().catch(() => undefined);
}

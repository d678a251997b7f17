import { stat } from 'node:fs/promises';
import { makeFolder } from '../core/make-folder.js';
import { join } from 'node:path';
import type Conf from 'conf';
import { ConfigError } from '../core/errors.js';
import { FileShapeError, readRegularFile } from '../core/read-file.js';
import { credentialSecrets } from '../core/redaction/index.js';
import { exposureOf, modeText } from '../core/private-place.js';
import { withFileLock } from './lock.js';
import { CONFIG_FILE_NAME } from './paths.js';
import { emptyConfig, validateConfig, type ConfigData } from './schema.js';

const FILE_MODE = 0o600;
/** A few profiles take a few hundred bytes; anything near this is not a petstore config. */
const MAX_CONFIG_BYTES = 1024 * 1024;
const DIR_MODE = 0o700;

function errorCode(error: unknown): string {
  return (error as NodeJS.ErrnoException).code ?? (error as Error).name;
}

/**
 * The profiles and keys file (conf), read fresh for every use and changed only under a lock.
 * It is never cleared or rewritten to repair it: a damaged file is reported and left as it is.
 */
export class ConfigStore {
  readonly path: string;
  /** A config others can read is said once a run, however often it is read. */
  private exposureWarned = false;

  /**
   * @param warn receives warnings (loose permissions fixed).
   * @param onKeys receives every secret the file holds (keys, credentials in URLs), on every read, so that the run can
   *   keep them out of anything it prints.
   */
  constructor(
    readonly dir: string,
    private readonly warn: (message: string) => void,
    private readonly onKeys: (keys: string[], passwords: string[]) => void = () => undefined,
  ) {
    this.path = join(dir, CONFIG_FILE_NAME);
  }

  /**
   * The current configuration; an absent file reads as empty and is not created. Read directly
   * (conf would create the folder, and would take a JSON array for an object); conf writes.
   * Read synchronously: the file is small, and node:fs/promises would cost a read-only command
   * about 10 ms to load.
   */
  read(): Promise<ConfigData> {
    return new Promise((resolve) => resolve(this.readNow()));
  }

  private readNow(): ConfigData {
    const exposure = exposureOf(this.path, 'it', 'read');
    if (exposure?.kind === 'refuse') {
      throw new ConfigError(exposure.message, this.path, { hint: exposure.hint });
    }
    let text: string;
    try {
      text = readRegularFile(this.path, MAX_CONFIG_BYTES).toString('utf8');
    } catch (error) {
      if (error instanceof FileShapeError) {
        // A FIFO would hang every command (and every TAB), a link to /dev/zero eat memory.
        throw new ConfigError(
          `config file ${error.message}; a petstore config is a small file`,
          this.path,
          {
            hint: 'Check what made it, or move it away to start afresh; petstore left it untouched.',
          },
        );
      }
      if (errorCode(error) === 'ENOENT') return emptyConfig();
      throw this.readError(error);
    }
    let raw: unknown;
    try {
      raw = JSON.parse(text);
    } catch (error) {
      throw this.readError(error);
    }
    const data = validateConfig(raw, this.path);
    const keys = Object.values(data.profiles).some((profile) => profile.apiKey !== undefined);
    if (exposure && keys && !this.exposureWarned) {
      this.exposureWarned = true;
      this.warn(`${exposure.message}, and it holds an API key: ${exposure.hint}`);
    }
    // The keys, and any credentials a URL edited in by hand holds, whatever its shape.
    const profiles = Object.values(data.profiles);
    this.onKeys(
      profiles.flatMap((profile) => (profile.apiKey ? [profile.apiKey] : [])),
      profiles.flatMap((profile) => [
        ...credentialSecrets(profile.baseUrl ?? ''),
        ...credentialSecrets(profile.quickstartUrl ?? ''),
      ]),
    );
    return data;
  }

  /**
   * What `change` would do, without doing it: the configuration before and after, computed on
   * a copy. Nothing is written, not even the folder.
   */
  async preview(
    change: (data: ConfigData) => void,
  ): Promise<{ before: ConfigData; after: ConfigData }> {
    const before = await this.read();
    const after = structuredClone(before);
    change(after);
    return { before, after };
  }

  /** Read-modify-write under the lock, so concurrent processes never lose each other's update. */
  async update(change: (data: ConfigData) => void): Promise<ConfigData> {
    await this.ensureDirectory();
    return withFileLock(`${this.path}.lock`, async () => {
      const data = await this.read();
      // A file the user made keeps the mode they gave it (petstore's own is made 0600); one
      // they made read-only is not written at all.
      const previousMode = await stat(this.path).then(
        (info) => info.mode & 0o7777,
        () => undefined,
      );
      if (previousMode !== undefined && (previousMode & 0o200) === 0) {
        throw new ConfigError(
          `${this.path} is read-only (mode ${modeText(previousMode)}): petstore will not change it`,
          this.path,
          { hint: `To let it: chmod u+w ${this.path}` },
        );
      }
      change(data);
      try {
        (await this.open(previousMode ?? FILE_MODE)).store = data as unknown as Record<
          string,
          unknown
        >;
      } catch (error) {
        throw new ConfigError(`cannot write ${this.path}: ${errorCode(error)}`, this.path, {
          hint: 'Check that the folder is writable, or point PETSTORE_CONFIG_DIR elsewhere.',
          cause: error,
        });
      }
      return data;
    });
  }

  /** conf, with ajv under it, is loaded only to write: reading the file needs neither. */
  private async open(mode: number): Promise<Conf> {
    const { default: Conf } = await import('conf');
    try {
      return new Conf({
        cwd: this.dir,
        configName: 'config',
        projectSuffix: '',
        configFileMode: mode,
        clearInvalidConfig: false,
        accessPropertiesByDotNotation: false,
      });
    } catch (error) {
      throw this.readError(error);
    }
  }

  private readError(error: unknown): ConfigError {
    if (error instanceof SyntaxError) {
      return new ConfigError(`config file ${this.path} is not valid JSON`, this.path, {
        hint: 'Fix it by hand, or move it away to start afresh; petstore left it untouched.',
        cause: error,
      });
    }
    return new ConfigError(`cannot read ${this.path}: ${errorCode(error)}`, this.path, {
      hint: 'Check its permissions, or point PETSTORE_CONFIG_DIR elsewhere.',
      cause: error,
    });
  }

  /**
   * The folder, made private if petstore makes it; one that exists is never changed: written to
   * only if no one else could change what is written (see exposureOf).
   */
  private async ensureDirectory(): Promise<void> {
    try {
      await makeFolder(this.dir, DIR_MODE);
    } catch (error) {
      throw new ConfigError(`cannot create ${this.dir}: ${errorCode(error)}`, this.dir, {
        hint: 'Check the permissions of its parent, or point PETSTORE_CONFIG_DIR elsewhere.',
        cause: error,
      });
    }
    const exposure = exposureOf(this.path, 'it', 'write');
    if (exposure?.kind === 'refuse') {
      throw new ConfigError(exposure.message, this.path, { hint: exposure.hint });
    }
  }
}

import { join } from 'node:path';
import { expect, beforeEach } from 'vitest';
import type { Transport } from '../../src/api/http.js';
import type { Keyring } from '../../src/context/context.js';
import { main } from '../../src/main.js';
import { fakeIO } from './fake-io.js';
import { freshHome } from './run-cli.js';

export const STAGING = 'https://staging.petstore.test';
export const STORED_KEY = 'sk_stored_SECRET_k123';
export const ENV_KEY = 'sk_env_SECRET_zz99';
export const JSON_HEADERS = { 'content-type': 'application/json' };

/**
 * A new home and config folder for every test, and helpers to run petstore in it in-process.
 * No test sees another's profiles or keys.
 */
export function useConfigHome() {
  const state = { home: '', env: {} as Record<string, string>, configFile: '' };
  beforeEach(() => {
    state.home = freshHome();
    state.env = { HOME: state.home, PETSTORE_CONFIG_DIR: join(state.home, 'cfg') };
    state.configFile = join(state.home, 'cfg', 'config.json');
  });

  async function run(
    args: string[],
    options: {
      env?: Record<string, string>;
      stdin?: string;
      tty?: boolean;
      keyring?: Keyring;
      transport?: Transport;
    } = {},
  ) {
    // Human-form errors by default, as on a terminal; tests ask for JSON with -o json.
    const io = fakeIO({ stdin: options.stdin, tty: options.tty ?? true });
    const code = await main(
      args,
      io,
      { ...state.env, ...options.env },
      { keyring: options.keyring, transport: options.transport },
    );
    return { code, out: io.out(), err: io.err() };
  }

  /** Stores a key in the config file (the keyring has its own tests). */
  async function login(profile: string, key = STORED_KEY) {
    const result = await run(
      ['auth', 'login', '--profile', profile, '--no-verify', '--insecure-storage'],
      { stdin: `${key}\n` },
    );
    expect(result.code).toBe(0);
  }

  return {
    run,
    login,
    get home() {
      return state.home;
    },
    get env() {
      return state.env;
    },
    get configFile() {
      return state.configFile;
    },
  };
}

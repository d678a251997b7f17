import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import type { Env } from '../core/io.js';

function home(env: Env): string {
  return env.HOME && env.HOME !== '' ? env.HOME : homedir();
}

/** An XDG base folder: only an absolute path counts (the XDG spec: a relative one is ignored). */
function xdg(value: string | undefined, fallback: string): string {
  return value !== undefined && isAbsolute(value) ? value : fallback;
}

/** PETSTORE_CONFIG_DIR, else $XDG_CONFIG_HOME/petstore, else ~/.config/petstore. */
export function configDir(env: Env): string {
  if (env.PETSTORE_CONFIG_DIR) return env.PETSTORE_CONFIG_DIR;
  return join(xdg(env.XDG_CONFIG_HOME, join(home(env), '.config')), 'petstore');
}

/** The name of the config file in the config folder. */
export const CONFIG_FILE_NAME = 'config.json';

/** $XDG_DATA_HOME/petstore, else ~/.local/share/petstore: where the sandbox keeps its data. */
export function dataDir(env: Env): string {
  return join(xdg(env.XDG_DATA_HOME, join(home(env), '.local', 'share')), 'petstore');
}

/** $XDG_STATE_HOME/petstore, else ~/.local/state/petstore: what runs leave behind them. */
export function stateDir(env: Env): string {
  return join(xdg(env.XDG_STATE_HOME, join(home(env), '.local', 'state')), 'petstore');
}

/** The history of writes: one SQLite file, shared by every petstore process of the user. */
export function historyFile(env: Env): string {
  return join(stateDir(env), 'history.db');
}

/** Where bulk runs keep their journals, unless --journal says otherwise. */
export function journalsDir(env: Env): string {
  return join(stateDir(env), 'journals');
}

/** The built-in sandbox profile's SQLite file. */
export function sandboxDatabaseFile(env: Env): string {
  return join(dataDir(env), 'sandbox.db');
}

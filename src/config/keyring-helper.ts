import type { IO } from '../core/io.js';
import { NO_SESSION_BUS } from './keyring-reasons.js';

/** The keyring's service name: entries are (petstore-cli, profile name). */
export const KEYRING_SERVICE = 'petstore-cli';

export type KeyringOperation = 'get' | 'set' | 'delete';

/** What the helper answers on stdout: one JSON line. */
export type KeyringAnswer = { ok: true; value?: string | null } | { ok: false; error: string };

async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  let text = '';
  for await (const chunk of stream) text += String(chunk);
  return text;
}

/**
 * `petstore __keyring get|set|delete PROFILE`, run as a child process by the tool itself: the
 * one place the native keyring binding is loaded. A keyring that hangs (a Secret Service that
 * never answers) hangs only this process, which the parent kills at its deadline. The key to
 * store comes on stdin, never on the command line.
 */
export async function runKeyringHelper(args: readonly string[], io: Pick<IO, 'stdin' | 'stdout'>) {
  const [operation, profile] = args;
  const answer = (value: KeyringAnswer) => io.stdout.write(JSON.stringify(value) + '\n');
  if (!['get', 'set', 'delete'].includes(operation ?? '') || !profile) {
    answer({ ok: false, error: 'usage: __keyring get|set|delete PROFILE' });
    return 2;
  }
  try {
    const { Entry } = await loadBinding();
    const entry = new Entry(KEYRING_SERVICE, profile);
    switch (operation as KeyringOperation) {
      case 'get':
        answer({ ok: true, value: entry.getPassword() ?? null });
        break;
      case 'set':
        entry.setPassword((await readAll(io.stdin)).trim());
        answer({ ok: true });
        break;
      case 'delete':
        answer({ ok: true, value: entry.deletePassword() ? 'deleted' : null });
        break;
    }
    return 0;
  } catch (error) {
    answer({ ok: false, error: reason(error) });
    return 1;
  }
}

async function loadBinding(): Promise<typeof import('@napi-rs/keyring')> {
  try {
    return await import('@napi-rs/keyring');
  } catch (error) {
    // The single executable carries no native modules.
    if (process.getBuiltinModule('node:sea').isSea()) {
      throw new Error('the single executable has no keyring binding (the npm package has one)', {
        cause: error,
      });
    }
    throw error;
  }
}

/** Why the keyring failed, in words that point at the cause. */
function reason(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  // On Linux the keyring is the Secret Service, on the D-Bus session bus: without that bus
  // the library only says "AccessDenied".
  const noBinding = message.startsWith('the single executable');
  if (process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS && !noBinding) {
    // What the library says (AccessDenied) adds nothing to that.
    return NO_SESSION_BUS;
  }
  return message;
}

import { spawn } from 'node:child_process';
import type { KeyringAnswer, KeyringOperation } from './keyring-helper.js';
export { NO_SESSION_BUS } from './keyring-reasons.js';

/** How long the OS keyring has to answer before the tool goes on without it. */
export const KEYRING_TIMEOUT_MS = 2500;

/** The OS keyring (Secret Service, Keychain, Credential Manager), one entry per profile. */
export interface Keyring {
  /** The stored key, or undefined when the keyring holds none for the profile. */
  get(profile: string): Promise<string | undefined>;
  set(profile: string, key: string): Promise<void>;
  /** True when an entry was there and is gone. */
  delete(profile: string): Promise<boolean>;
}

/** The keyring could not be used: none is running, it refused, or it did not answer in time. */
export class KeyringUnavailableError extends Error {
  constructor(readonly reason: string) {
    super(`the OS keyring is not available: ${reason}`);
  }
}

/**
 * The keyring reached through a child process running `petstore __keyring` (the command
 * given), killed at the deadline: a native call that hangs cannot be interrupted in-process,
 * and must not hang the tool.
 */
export function helperKeyring(command: readonly string[], timeoutMs = KEYRING_TIMEOUT_MS): Keyring {
  const call = (operation: KeyringOperation, profile: string, input = '') =>
    new Promise<string | null | undefined>((resolve, reject) => {
      const [file, ...args] = command;
      const child = spawn(file!, [...args, '__keyring', operation, profile], {
        stdio: ['pipe', 'pipe', 'ignore'],
      });
      let out = '';
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        reject(new KeyringUnavailableError(`it did not answer within ${timeoutMs / 1000} s`));
      }, timeoutMs);
      child.stdout.setEncoding('utf8').on('data', (chunk: string) => (out += chunk));
      child.on('error', (error) => {
        clearTimeout(timer);
        reject(new KeyringUnavailableError(error.message));
      });
      child.on('close', () => {
        clearTimeout(timer);
        let answer: KeyringAnswer;
        try {
          answer = JSON.parse(out) as KeyringAnswer;
        } catch {
          reject(new KeyringUnavailableError('the keyring helper gave no answer'));
          return;
        }
        if (answer.ok) resolve(answer.value);
        else reject(new KeyringUnavailableError(answer.error));
      });
      // The key travels on stdin: never on a command line, where other users could read it.
      child.stdin.on('error', () => undefined);
      child.stdin.end(input);
    });
  return {
    get: async (profile) => (await call('get', profile)) ?? undefined,
    set: async (profile, key) => {
      await call('set', profile, key);
    },
    delete: async (profile) => (await call('delete', profile)) === 'deleted',
  };
}

/** For a program that cannot run itself again (embedded in a test): every call fails. */
export function noKeyring(): Keyring {
  const unavailable = () =>
    Promise.reject(new KeyringUnavailableError('this process has no way to reach it'));
  return { get: unavailable, set: unavailable, delete: unavailable };
}

/**
 * The keyring with its answers kept for the run: a keyring that does not answer costs its
 * deadline once, not once per question (doctor asks, then the client asks again).
 */
export function rememberingKeyring(keyring: Keyring): Keyring {
  const answers = new Map<string, Promise<string | undefined>>();
  return {
    get(profile) {
      let answer = answers.get(profile);
      if (answer === undefined) {
        answer = keyring.get(profile);
        answers.set(profile, answer);
      }
      return answer;
    },
    async set(profile, key) {
      answers.delete(profile);
      await keyring.set(profile, key);
    },
    async delete(profile) {
      answers.delete(profile);
      return keyring.delete(profile);
    },
  };
}

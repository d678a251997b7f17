import { KeyringUnavailableError, type Keyring } from '../../src/config/keyring.js';

/** An OS keyring in memory: what was stored, and every call made. */
export class MemoryKeyring implements Keyring {
  readonly entries = new Map<string, string>();
  readonly calls: string[] = [];
  /** When set, every call fails with this reason, as a keyring that is not there. */
  unavailable: string | undefined;

  get(profile: string) {
    return this.call('get', profile, () => this.entries.get(profile));
  }
  set(profile: string, key: string) {
    return this.call('set', profile, () => {
      this.entries.set(profile, key);
    });
  }
  delete(profile: string) {
    return this.call('delete', profile, () => this.entries.delete(profile));
  }

  private call<T>(operation: string, profile: string, act: () => T): Promise<T> {
    this.calls.push(`${operation} ${profile}`);
    if (this.unavailable) return Promise.reject(new KeyringUnavailableError(this.unavailable));
    return Promise.resolve(act());
  }
}

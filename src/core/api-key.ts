import { randomHex } from './random-hex.js';
/**
 * Why a key cannot be sent as `Authorization: Bearer KEY`, or undefined when it can. Only
 * visible ASCII fits in a header without being refused or altered on the way; the key itself
 * is never quoted, only the position and kind of the first character that does not fit.
 */
export function apiKeyProblem(key: string): string | undefined {
  for (let index = 0; index < key.length; index++) {
    const code = key.charCodeAt(index);
    if (code > 0x20 && code < 0x7f) continue;
    const kind =
      code === 0x0a || code === 0x0d
        ? 'a line break'
        : code === 0x20 || code === 0x09
          ? 'white space'
          : code < 0x20 || code === 0x7f
            ? 'a control character'
            : 'a non-ASCII character';
    return `it holds ${kind} at character ${index + 1}, which cannot be sent in an HTTP header`;
  }
  return undefined;
}

/**
 * A key no service can know, to see that the service refuses it (smoke, the agent's smoke).
 * The run masks every key it holds, this one too, by any 8 of its characters in a row: after
 * its kind it is random hex alone, so no word of a service's answer (`invalid_limit`) is
 * masked for sharing 8 letters with it, and a new one each run shares nothing with fixed data.
 */
export function unknownApiKey(): string {
  return `sk_test_${randomHex(24)}`;
}

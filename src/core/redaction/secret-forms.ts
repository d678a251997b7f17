import { MASK } from './mask.js';

/**
 * What the last net looks for of one secret: the secret whole, in any letter case, and in the
 * encodings a transport gives it (hex in either case, base64 and base64url, standalone or at
 * any place of a longer encoded text); and, where an echo is too long to be ordinary text,
 * any part of it in its own letter case: a run of at least RUN_MIN characters and at least half
 * the secret
 * (decision 0012). Percent-encoding and JSON or Unicode escapes are undone before the search
 * (see redactor.ts), so every spelling of those is found too.
 */

/**
 * The shortest part of a secret that is masked, whatever the secret's length. A part is found
 * in the secret's own letter case only: a name that shares words with a key made of them
 * (`Fluffy-Kitten`, key `fluffy-kitten-42`) is typed in its own case, an echo keeps the key's.
 */
export const RUN_MIN = 12;

/** The length of the shortest part of this secret that is masked. */
export function runLength(secret: string): number {
  return Math.max(RUN_MIN, Math.ceil(secret.length / 2));
}

/** One literal to find: its text, whether its letter case counts, and its mask. */
export interface Form {
  text: string;
  anyCase: boolean;
  mask: string;
}

/**
 * base64 of the secret at each of the three places a longer text may hold it: the characters
 * that depend on the secret alone (those a neighbouring byte shares left out), so an
 * Authorization header's `user:key` or a token holding the key is found as the key alone is.
 */
function base64Infixes(bytes: Buffer, alphabet: 'base64' | 'base64url'): string[] {
  const forms: string[] = [];
  for (let offset = 0; offset < 3; offset++) {
    const encoded = Buffer.concat([Buffer.alloc(offset), bytes]).toString(alphabet);
    // The leading characters mix the padding bytes in; the last group may mix what follows.
    const from = Math.ceil((offset * 4) / 3);
    const whole = Math.floor((offset + bytes.length) / 3) * 4;
    const infix = encoded.slice(from, whole);
    if (infix.length >= 8) forms.push(infix);
  }
  return forms;
}

/** An encoding that holds no letter reads as a number (the hex of `abcdefgh`): data, not found. */
const HAS_LETTER = /[a-z]/i;

/** Every literal form of a secret, each masked with `mask`. */
export function formsOf(secret: string, mask: string): Form[] {
  const bytes = Buffer.from(secret);
  const forms: Form[] = [
    { text: secret, anyCase: true, mask },
    { text: bytes.toString('hex'), anyCase: true, mask },
  ];
  for (const alphabet of ['base64', 'base64url'] as const) {
    // Whole, with or without padding; and inside a longer encoded text.
    forms.push({ text: bytes.toString(alphabet).replace(/=+$/, ''), anyCase: false, mask });
    for (const infix of base64Infixes(bytes, alphabet)) {
      forms.push({ text: infix, anyCase: false, mask: MASK });
    }
  }
  return forms.filter((form) => form.text === secret || HAS_LETTER.test(form.text));
}

/**
 * Credentials in what a person meant as a URL (a base URL, a proxy variable), whatever its
 * shape: with a scheme or none (`user:pw@host`), a misspelled one (`http//`, `http:/`, `//`),
 * percent-encoded (`http%3A%2F%2Fuser%3Apw%40host`). Everything from where the credentials may
 * start to the last "@" counts: an unencoded "/", "#" or "?" in a password makes the value no
 * URL, and a token alone, with no ":", is a secret too. Masking a little too much is the price.
 */
import { MASK } from './mask.js';

const COLON = '(?::|%3a|%253a)';
const SLASH = '(?:/|%2f|%252f)';
/** Schemes a proxy or service URL uses: with these, `scheme:` alone is a scheme, not a user. */
const KNOWN_SCHEME = '(?:https?|socks[45]?[ah]?|wss?|ftp)';
/** Where credentials would start: after a scheme (however misspelled) or a bare `//`. */
const PREFIX = new RegExp(
  `^\\s*(?:${KNOWN_SCHEME}(?:${COLON}${SLASH}{0,2}|${SLASH}{1,2})|[a-z][a-z0-9+.-]*${COLON}${SLASH}{1,2}|${SLASH}{1,2})`,
  'i',
);
/** Credentials need an "@" (or "%40", or a look-alike), a ":" or a "=": most words have none. */
const MAY_HOLD_CREDENTIALS = /[@%:=\uff20\ufe6b]/;
/** No "@" (nor "%", which may spell one), no "?", and a port, if any, of digits; or nothing. */
const PLAIN_URL = /^(?:https?:\/\/[\w.-]+(?::\d+)?(?:\/[\w.~/-]*)?)?$/i;
/** "@" as written, percent-encoded, encoded twice, or a look-alike (＠ U+FF20, ﹫ U+FE6B). */
const AT_SPELLED = /@|%40|%2540|\uff20|\ufe6b/i;
const AT = new RegExp(AT_SPELLED.source, 'gi');

function credentialsStart(value: string): number {
  return PREFIX.exec(value)?.[0].length ?? 0;
}

/** How many "@" at each end of a value are each taken for the end of its credentials. */
const AT_SIGNS_EACH_END = 8;

/**
 * Each "@" (in any spelling) after where credentials may start: [index, length]. Of a value
 * with very many, those at either end (any one may end the credentials; the last is the one a
 * URL parser takes): a value quoted back holds each of them, and no more are searched for.
 */
function atSigns(value: string, start: number): [number, number][] {
  const found: [number, number][] = [];
  for (const match of value.matchAll(AT)) {
    if (match.index > start) found.push([match.index, match[0].length]);
  }
  if (found.length <= 2 * AT_SIGNS_EACH_END) return found;
  return [...found.slice(0, AT_SIGNS_EACH_END), ...found.slice(-AT_SIGNS_EACH_END)];
}

/**
 * A query's values (`?access_token=…`), and a fragment's or a path parameter's in the same form
 * (`#token=…`, `;token=…`), and a "port" that is no number (`http://user:secret`, the host and
 * its `@` left out) also carry secrets, in what was meant as a URL.
 */
const QUERY_VALUE = /([?&#;][^=&#;?]*=)([^&#;]*)/g;

/**
 * A "port" that is no number: in the value's first part (up to a "/", "?", "#" or "@"), what
 * follows the last ":" that has something other than digits after it. Found in one pass.
 */
function wordPort(value: string): { before: string; word: string } | undefined {
  const end = value.search(/[/?#@]/);
  const part = end === -1 ? value : value.slice(0, end);
  let lastNonDigit = part.length - 1;
  while (
    lastNonDigit >= 0 &&
    part.charCodeAt(lastNonDigit) >= 0x30 &&
    part.charCodeAt(lastNonDigit) <= 0x39
  ) {
    lastNonDigit--;
  }
  const colon = lastNonDigit < 1 ? -1 : part.lastIndexOf(':', lastNonDigit - 1);
  if (colon === -1) return undefined;
  return { before: part.slice(0, colon + 1), word: part.slice(colon + 1) };
}
const CREDENTIAL_NAME =
  /token|key|secret|pass|pwd|auth|sig|session|credential|jwt|bearer|^\W*(?:pw|sid)\W*$/i;

/** The value with its credentials masked: `scheme://****@host`, `****@host`, `?token=****`. */
export function maskCredentials(value: string): string {
  const start = credentialsStart(value);
  const last = atSigns(value, start).at(-1);
  let masked: string;
  if (last !== undefined) masked = `${value.slice(0, start)}${MASK}${value.slice(last[0])}`;
  else {
    const rest = value.slice(start);
    const port = wordPort(rest);
    masked =
      value.slice(0, start) +
      (port === undefined
        ? rest
        : `${port.before}${MASK}${rest.slice(port.before.length + port.word.length)}`);
  }
  masked = masked.replace(QUERY_VALUE, (_all, name: string, found: string) =>
    found === '' ? name : `${name}${MASK}`,
  );
  return masked;
}

/** decodeURIComponent, or the text as it is where it holds a "%" that starts no escape. */
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The text and what it decodes to, once and twice (a value may be encoded twice). */
function spellings(text: string): string[] {
  const once = decoded(text);
  return [...new Set([text, once, decoded(once)])];
}

/**
 * The secrets a URL-like value may hold, to keep out of everything a run prints: for each "@"
 * that may end its credentials (no reader can be sure which one does), the credentials whole,
 * the user and the password, as written and decoded, and as an Authorization header carries
 * them (base64 of user:password), which a proxy or service may echo.
 */
export function credentialSecrets(value: string): string[] {
  // A word without those characters holds none, nor does a URL of a scheme, a host, a port
  // and a path, nor an empty value (most values: the full search's first run costs most of a
  // millisecond).
  return !MAY_HOLD_CREDENTIALS.test(value) || PLAIN_URL.test(value) ? [] : searchCredentials(value);
}

/** credentialSecrets without its shortcut for plain URLs (tests check the two agree). */
export function searchCredentials(value: string): string[] {
  const text = value.trim();
  const start = credentialsStart(text);
  const secrets = new Set<string>();
  for (const [at] of atSigns(text, start)) {
    for (const whole of spellings(text.slice(start, at))) {
      secrets.add(whole);
      const colon = whole.indexOf(':');
      if (colon === -1) continue;
      const user = whole.slice(0, colon);
      const password = whole.slice(colon + 1);
      secrets.add(user).add(password);
      secrets.add(Buffer.from(`${decoded(user)}:${decoded(password)}`).toString('base64'));
    }
  }
  if (atSigns(text, start).length === 0) {
    const word = wordPort(text.slice(start))?.word;
    if (word !== undefined) for (const spelling of spellings(word)) secrets.add(spelling);
  }
  // A query value named as a credential is one (others are data: masking them everywhere
  // would corrupt what is printed); messages mask every query value anyway.
  // In every spelling of the text: a name or a "?" may be percent-encoded (`to%6ben=`).
  for (const spelling of spellings(text)) {
    for (const [, name, found] of spelling.matchAll(QUERY_VALUE)) {
      if (!spellings(name!).some((named) => CREDENTIAL_NAME.test(named))) continue;
      for (const value of spellings(found!)) secrets.add(value);
    }
  }
  secrets.delete('');
  return [...secrets];
}

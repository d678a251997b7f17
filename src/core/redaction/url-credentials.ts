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

/** Whether the value holds an "@" in any of the spellings that may end credentials. */
export function holdsAtSign(value: string): boolean {
  return AT_SPELLED.test(value);
}

function credentialsStart(value: string): number {
  return PREFIX.exec(value)?.[0].length ?? 0;
}

/** Each "@" (in any spelling) after where credentials may start: [index, length]. */
function atSigns(value: string, start: number): [number, number][] {
  const found: [number, number][] = [];
  for (const match of value.matchAll(AT)) {
    if (match.index > start) found.push([match.index, match[0].length]);
  }
  return found;
}

/**
 * A query's values (`?access_token=…`), and a fragment's or a path parameter's in the same form
 * (`#token=…`, `;token=…`), and a "port" that is no number (`http://user:secret`, the host and
 * its `@` left out) also carry secrets, in what was meant as a URL.
 */
const QUERY_VALUE = /([?&#;][^=&#;]*=)([^&#;]*)/g;
const WORD_PORT = /^([^/?#@]*:)([^/?#@]*[^\d/?#@][^/?#@]*)/;
const CREDENTIAL_NAME =
  /token|key|secret|pass|pwd|auth|sig|session|credential|jwt|bearer|^\W*(?:pw|sid)\W*$/i;

/** The value with its credentials masked: `scheme://****@host`, `****@host`, `?token=****`. */
export function maskCredentials(value: string): string {
  const start = credentialsStart(value);
  const last = atSigns(value, start).at(-1);
  let masked =
    last === undefined
      ? value.slice(0, start) + value.slice(start).replace(WORD_PORT, `$1${MASK}`)
      : `${value.slice(0, start)}${MASK}${value.slice(last[0])}`;
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
    const word = WORD_PORT.exec(text.slice(start))?.[2];
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

/** The environment variables that hold a URL or a proxy, either letter case for proxies. */
export const URL_VARIABLES = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
  'PETSTORE_BASE_URL',
  'PETSTORE_QUICKSTART_URL',
] as const;

/** A scheme and "//" (`https://`, `socks5://`), or "//" starting the token: meant as a URL. */
const URL_START = /[a-z][a-z0-9+.-]*:\/\/|^\/\//gi;
/**
 * Credentials without a scheme: a ":" then an "@" (`user:password@host`), or an "@" then a host
 * and its port (`token@host:8080`), each in any spelling. An address (`someone@example.com`)
 * has neither.
 */
const SCHEMELESS_CREDENTIALS = new RegExp(
  `${COLON}.*(?:${AT_SPELLED.source})|(?:${AT_SPELLED.source}).*${COLON}\\d+(?:$|/|%2f)`,
  'is',
);

/** The flags whose value is a URL, as the command line gives them. */
// eslint-disable-next-line no-restricted-syntax -- the words of argv, read to mask what they hold
const URL_FLAGS = ['--base-url', '--quickstart-url'];

/**
 * The credentials of every URL on a command line, to mask wherever the run shows them (a usage
 * error quoting a flag's value, an extra word). In each token of each word (a word of free
 * text, a message or a name, is cut at its blanks: a URL holds none): a token meant as a URL,
 * or a URL joined to a flag (`--output=https://…`, `-ohttps://…`, `name=https://…`). Shaped as
 * credentials are without a scheme (SCHEMELESS_CREDENTIALS), only the value of a URL flag
 * (`--base-url user:pw@host`) or a word taken for an unknown option (`-user:pw@host`): in data,
 * the same shape is a name or a time (`lunch:tomorrow@noon`, `mailto:bob@example.com`).
 */
export function commandLineSecrets(argv: readonly string[]): string[] {
  return argv.flatMap((word, index) => {
    const urlValue =
      URL_FLAGS.includes(argv[index - 1] ?? '') ||
      URL_FLAGS.some((flag) => word.startsWith(`${flag}=`)) ||
      (word.startsWith('-') && !word.startsWith('--'));
    return word.split(/\s+/).flatMap((token) => {
      const starts = [...token.matchAll(URL_START)];
      if (starts.length === 0) {
        return urlValue && SCHEMELESS_CREDENTIALS.test(token) ? credentialSecrets(token) : [];
      }
      return starts.flatMap((start) => credentialSecrets(token.slice(start.index)));
    });
  });
}

/**
 * The secrets the environment gives a run, known before anything is parsed: the API key
 * (PETSTORE_API_KEY) and the credentials of every URL variable. `hidden`: masked with no tail.
 */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): {
  keys: string[];
  hidden: string[];
} {
  const key = env.PETSTORE_API_KEY?.trim();
  return {
    keys: key ? [key] : [],
    hidden: URL_VARIABLES.flatMap((name) => credentialSecrets(env[name] ?? '')),
  };
}

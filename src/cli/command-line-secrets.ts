import { credentialSecrets } from '../core/redaction/index.js';

/**
 * The credentials of every URL a command line holds, read from its words before commander
 * parses them (a usage error may quote any word): the one other reading of argv by hand
 * besides cli/argv.ts, kept apart from it because it needs the credential search, which the
 * help fast path must not load.
 */

const COLON = '(?::|%3a|%253a)';
/** "@" as written, percent-encoded, encoded twice, or a look-alike (＠ U+FF20, ﹫ U+FE6B). */
const AT = /@|%40|%2540|\uff20|\ufe6b/gi;

/**
 * Where a URL starts in a token: a scheme and "//" (`https://`, `socks5://`), or "//" starting
 * the token. Found from each "://" back over the scheme's characters: one pass, however long.
 */
function urlStarts(token: string): number[] {
  const starts = token.startsWith('//') ? [0] : [];
  for (let at = token.indexOf('://'); at !== -1; at = token.indexOf('://', at + 3)) {
    let start = at;
    while (start > 0 && /[a-z0-9+.-]/i.test(token[start - 1]!)) start--;
    // A scheme starts with a letter: digits and signs before one are not part of it.
    while (start < at && !/[a-z]/i.test(token[start]!)) start++;
    if (start < at) starts.push(start);
  }
  return starts;
}

const COLON_SPELLED = new RegExp(COLON, 'i');
const PORT_AFTER = new RegExp(`${COLON}\\d+(?:$|/|%2f)`, 'i');

/**
 * Credentials without a scheme: a ":" then an "@" (`user:password@host`), or an "@" then a host
 * and its port (`token@host:8080`), each in any spelling. An address (`someone@example.com`)
 * has neither. Each is one search from a place: no search backs up over what it passed.
 */
function schemelessCredentials(token: string): boolean {
  const colon = token.search(COLON_SPELLED);
  const ats = [...token.matchAll(AT)];
  const lastAt = ats.at(-1);
  if (colon !== -1 && lastAt !== undefined && lastAt.index > colon) return true;
  const firstAt = ats[0];
  return firstAt !== undefined && PORT_AFTER.test(token.slice(firstAt.index + firstAt[0].length));
}

/** The flags whose value is a URL, as the command line gives them. */
const URL_FLAGS = ['--base-url', '--quickstart-url'];

/**
 * The credentials of every URL on a command line, to mask wherever the run shows them (a usage
 * error quoting a flag's value, an extra word). In each token of each word (a word of free
 * text, a message or a name, is cut at its blanks: a URL holds none): a token meant as a URL,
 * or a URL joined to a flag (`--output=https://…`, `-ohttps://…`, `name=https://…`). Shaped as
 * credentials are without a scheme (schemelessCredentials), only the value of a URL flag
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
      const starts = urlStarts(token);
      if (starts.length === 0) {
        return urlValue && schemelessCredentials(token) ? credentialSecrets(token) : [];
      }
      // Each URL up to where the next starts: a token of many is read once.
      return starts.flatMap((start, i) => credentialSecrets(token.slice(start, starts[i + 1])));
    });
  });
}

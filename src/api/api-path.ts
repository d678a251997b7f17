import { command, option, phrase, type OptionName } from '../core/phrase.js';
import { ProtocolError, UsageError } from '../core/errors.js';
import type { ServiceTarget } from './options.js';
import { joinUrl } from './request.js';
import { maskCredentials } from '../core/redaction/index.js';

/** The prefix that sends a path to the quickstart base URL: `quickstart:/messages`. */
export const QUICKSTART_PREFIX = 'quickstart:';

/**
 * The URL `petstore api PATH` sends to. A path is joined to the profile's base URL (keeping
 * its /v1), `quickstart:/path` to the quickstart base URL, and an absolute URL is taken only
 * on the origin of one of them: the key goes nowhere else. Its query string is kept.
 */
export function resolveApiPath(path: string, bases: ServiceTarget): URL {
  const base = (url: string | undefined, what: UrlName) => {
    if (url === undefined) throw missingUrlError(what, bases);
    return url;
  };
  if (CONTROL.test(path)) {
    throw new UsageError(
      'the path holds a control character (a tab, line break or other); nothing was sent',
      { hint: 'Percent-encode it (%09, %0A, %0D) if the service really expects it.' },
    );
  }
  // `//host/...` is a URL without its scheme to a reader, and a path with an empty segment to
  // a URL parser: refused rather than either guessed.
  if (path.startsWith('//') || path.startsWith('/\\')) {
    throw new UsageError(
      `"${maskCredentials(path)}" is a URL without its scheme, or a path with an empty first segment`,
      {
        hint: phrase`Give a path with one leading /, e.g. ${command('api')} /store/orders, or a whole https:// URL of the profile’s service.`,
      },
    );
  }
  if (/^https?:\/\//i.test(path)) {
    const url = URL.parse(path);
    if (url === null) {
      throw new UsageError(`"${maskCredentials(path)}" is not a valid URL`, {
        hint: phrase`Give a path relative to the base URL, e.g. ${command('api')} /store/orders.`,
      });
    }
    if (url.username !== '' || url.password !== '') {
      throw new UsageError('the URL holds a user name or password; petstore sends none', {
        hint: 'Leave them out: the profile’s key is sent as the Authorization header.',
      });
    }
    const allowed = serviceOrigins(bases);
    if (!allowed.includes(url.origin)) {
      throw new UsageError(
        `${url.origin} is not the profile's service; petstore sends its key only to ${allowed.join(' or ') || 'the profile’s base URL'}`,
        {
          hint: phrase`Give a path relative to the base URL, e.g. ${command('api')} /store/orders.`,
        },
      );
    }
    return url;
  }
  const quickstart = path.startsWith(QUICKSTART_PREFIX);
  const relative = quickstart ? path.slice(QUICKSTART_PREFIX.length) : path;
  if (!relative.startsWith('/')) {
    throw new UsageError(`the path must start with /, got "${maskCredentials(path)}"`, {
      hint: phrase`e.g. ${command('api')} /store/orders, or ${command('api')} quickstart:/messages`,
    });
  }
  const [pathname, query] = splitQuery(relative);
  // A URL reads a backslash as a slash (/pets\..\x is /x): never what a path under the base meant.
  if (pathname.includes('\\')) {
    throw new UsageError(`the path "${path}" holds a backslash, which a URL reads as /`, {
      hint: 'Use / between segments, or %5C for a backslash the service really expects.',
    });
  }
  if (pathname.split('/').some((segment) => DOT_SEGMENT.test(segment))) {
    throw new UsageError(
      `the path "${path}" has a . or .. segment: it would leave the base URL's path`,
      {
        hint: 'Give the path under the base URL, or an absolute URL on the same origin for one outside it.',
      },
    );
  }
  const url = quickstart
    ? joinUrl(base(bases.quickstartUrl, 'quickstart URL'), pathname)
    : joinUrl(base(bases.baseUrl, 'base URL'), pathname);
  if (query !== undefined) url.search = query;
  return url;
}

function splitQuery(path: string): [string, string | undefined] {
  const at = path.indexOf('?');
  return at === -1 ? [path, undefined] : [path.slice(0, at), path.slice(at + 1)];
}

/** C0 controls and DEL: never part of a path as typed; a URL parser drops some silently. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f]/;
/** `.` or `..`, also percent-encoded (%2e): a URL parser resolves them against the base path. */
const DOT_SEGMENT = /^(?:\.|%2e){1,2}$/i;

/** The origins of the profile's base and quickstart URLs: where its key may go. */
function serviceOrigins(bases: {
  baseUrl?: string | undefined;
  quickstartUrl?: string | undefined;
}): string[] {
  const origins = [bases.baseUrl, bases.quickstartUrl].flatMap((known) => {
    const url = known === undefined ? null : URL.parse(known);
    return url === null ? [] : [url.origin];
  });
  // Named once when both URLs are on one origin.
  return [...new Set(origins)];
}

/**
 * A link the service gave (the next page, from a Link header): followed only to the origin of
 * the profile's base or quickstart URL, so the key goes nowhere else.
 */
export function checkServiceLink(
  url: URL,
  bases: { baseUrl?: string | undefined; quickstartUrl?: string | undefined },
  what: string,
): void {
  const allowed = serviceOrigins(bases);
  if (!allowed.includes(url.origin)) {
    throw new ProtocolError(
      200,
      `the service's ${what} goes to another origin (${url.origin}); petstore does not follow it, so the API key stays with ${allowed.join(' and ')}`,
    );
  }
}

type UrlName = 'base URL' | 'quickstart URL';
const URL_OPTIONS: Record<UrlName, [option: OptionName, variable: string]> = {
  'base URL': ['baseUrl', 'PETSTORE_BASE_URL'],
  'quickstart URL': ['quickstartUrl', 'PETSTORE_QUICKSTART_URL'],
};

/**
 * A URL the request needs and the target lacks, with a fix that works: the built-in sandbox
 * profile has no URLs to set, so it is told to pass one, or to keep the URLs in a profile.
 */
export function missingUrlError(what: UrlName, target: ServiceTarget): UsageError {
  const [name, variable] = URL_OPTIONS[what];
  const named = target.label ?? `profile ${target.profile}`;
  const settable = target.urlsSettable !== false;
  const quickstart = what === 'quickstart URL' ? phrase` ${option('quickstartUrl', 'URL')}` : [];
  return new UsageError(`${named} has no ${what}`, {
    hint: settable
      ? phrase`Run: ${command('profile set')} ${target.profile} ${option(name, 'URL')} (or pass ${option(name)}, or set ${variable}).`
      : [
          ...phrase`Pass ${option(name, 'URL')} (or set ${variable}), or keep the service's URLs in a profile of your own: ${command('profile set')} NAME ${option('baseUrl', 'URL')}`,
          ...quickstart,
          '.',
        ],
  });
}

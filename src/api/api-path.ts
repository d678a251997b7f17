import { UsageError } from '../core/errors.js';
import { joinUrl } from './request.js';

/** The prefix that sends a path to the quickstart base URL: `quickstart:/messages`. */
export const QUICKSTART_PREFIX = 'quickstart:';

/**
 * The URL `petstore api PATH` sends to. A path is joined to the profile's base URL (keeping
 * its /v1), `quickstart:/path` to the quickstart base URL, and an absolute URL is taken only
 * on the origin of one of them: the key goes nowhere else. Its query string is kept.
 */
export function resolveApiPath(
  path: string,
  bases: { baseUrl?: string | undefined; quickstartUrl?: string | undefined; profile: string },
): URL {
  const base = (url: string | undefined, what: string, flag: string) => {
    if (url === undefined) {
      throw new UsageError(`profile "${bases.profile}" has no ${what}`, {
        hint: `Run: petstore profile set ${bases.profile} --${flag} URL (or pass --${flag}).`,
      });
    }
    return url;
  };
  if (/^https?:\/\//i.test(path)) {
    const url = new URL(path);
    const allowed = [bases.baseUrl, bases.quickstartUrl]
      .filter((known): known is string => known !== undefined)
      .map((known) => new URL(known).origin);
    if (!allowed.includes(url.origin)) {
      throw new UsageError(
        `${url.origin} is not the profile's service; petstore sends its key only to ${allowed.join(' or ') || 'the profile’s base URL'}`,
        { hint: 'Give a path relative to the base URL, e.g. petstore api /store/orders.' },
      );
    }
    return url;
  }
  const quickstart = path.startsWith(QUICKSTART_PREFIX);
  const relative = quickstart ? path.slice(QUICKSTART_PREFIX.length) : path;
  if (!relative.startsWith('/')) {
    throw new UsageError(`the path must start with /, got "${path}"`, {
      hint: 'e.g. petstore api /store/orders, or petstore api quickstart:/messages',
    });
  }
  const [pathname, query] = splitQuery(relative);
  const url = quickstart
    ? joinUrl(base(bases.quickstartUrl, 'quickstart URL', 'quickstart-url'), pathname)
    : joinUrl(base(bases.baseUrl, 'base URL', 'base-url'), pathname);
  if (query !== undefined) url.search = query;
  return url;
}

function splitQuery(path: string): [string, string | undefined] {
  const at = path.indexOf('?');
  return at === -1 ? [path, undefined] : [path.slice(0, at), path.slice(at + 1)];
}

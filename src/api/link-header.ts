import { option, phrase } from '../core/phrase.js';
import { ProtocolError } from '../core/errors.js';
import { snippet } from '../core/sanitize.js';

/**
 * A link whose target is not a URL. It cannot be followed, and taking it for no link would
 * end a list early, looking complete: a walk that meets one fails instead.
 */
export class BrokenLink {
  constructor(readonly target: string) {}
}

/** The error of a walk that meets a BrokenLink after page `page`. */
export function brokenLinkError(link: BrokenLink, status: number, page: number): ProtocolError {
  return new ProtocolError(
    status,
    `the service linked page ${page + 1} to "${snippet(link.target, 80)}", which is not a URL; the list may go on, but petstore cannot follow it`,
    {
      hint: phrase`Report this to the service; without ${option('all')} (or ${option('paginate')}) only the first page is read.`,
    },
  );
}

/**
 * The target of the link with the given relation in an RFC 8288 `Link` header, resolved
 * against the URL of the response; undefined when there is none. Handles several links in one
 * header, quoted parameter values (commas and semicolons inside quotes) and a `rel` holding
 * several space-separated relations. A target that is not a valid URL is a BrokenLink.
 */
export function linkTarget(
  header: string | undefined,
  rel: string,
  base: URL,
): URL | BrokenLink | undefined {
  if (header === undefined) return undefined;
  const wanted = rel.toLowerCase();
  for (const link of splitLinks(header)) {
    const match = /^\s*<([^>]*)>(.*)$/s.exec(link);
    if (!match) {
      // Not a link as RFC 8288 writes one, yet it names the relation: a list must not end here.
      if (namesRelation(link, wanted)) return new BrokenLink(link.trim());
      continue;
    }
    const relations = parameter(match[2]!, 'rel');
    if (relations === undefined) continue;
    if (!relations.toLowerCase().split(/\s+/).includes(wanted)) continue;
    try {
      return new URL(match[1]!, base);
    } catch {
      return new BrokenLink(match[1]!);
    }
  }
  return undefined;
}

/** Whether a text that is no well-formed link still says `rel=...wanted...`. */
function namesRelation(text: string, wanted: string): boolean {
  const rel = /;\s*rel\s*=\s*"?([^";,]*)/i.exec(text)?.[1];
  return rel !== undefined && rel.toLowerCase().split(/\s+/).includes(wanted);
}

/** Splits at the commas that separate links: not inside <...> or a quoted string. */
function splitLinks(header: string): string[] {
  const links: string[] = [];
  let start = 0;
  let inTarget = false;
  let inQuotes = false;
  for (let index = 0; index < header.length; index++) {
    const char = header[index];
    if (inQuotes) {
      if (char === '\\') index++;
      else if (char === '"') inQuotes = false;
    } else if (char === '"') inQuotes = true;
    else if (char === '<') inTarget = true;
    else if (char === '>') inTarget = false;
    else if (char === ',' && !inTarget) {
      links.push(header.slice(start, index));
      start = index + 1;
    }
  }
  links.push(header.slice(start));
  return links;
}

/** The value of one `; name=value` or `; name="value"` parameter of a link; the first wins. */
function parameter(params: string, name: string): string | undefined {
  const pattern = /;\s*([^\s=;]+)\s*(?:=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]*)))?/g;
  for (const match of params.matchAll(pattern)) {
    if (match[1]!.toLowerCase() !== name) continue;
    const quoted = match[2];
    return quoted !== undefined ? quoted.replace(/\\(.)/g, '$1') : (match[3] ?? '').trim();
  }
  return undefined;
}

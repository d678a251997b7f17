/**
 * The target of the link with the given relation in an RFC 8288 `Link` header, resolved
 * against the URL of the response; undefined when there is none. Handles several links in one
 * header, quoted parameter values (commas and semicolons inside quotes) and a `rel` holding
 * several space-separated relations. A target that is not a valid URL counts as absent.
 */
export function linkTarget(header: string | undefined, rel: string, base: URL): URL | undefined {
  if (header === undefined) return undefined;
  const wanted = rel.toLowerCase();
  for (const link of splitLinks(header)) {
    const match = /^\s*<([^>]*)>(.*)$/s.exec(link);
    if (!match) continue;
    const relations = parameter(match[2]!, 'rel');
    if (relations === undefined) continue;
    if (!relations.toLowerCase().split(/\s+/).includes(wanted)) continue;
    try {
      return new URL(match[1]!, base);
    } catch {
      return undefined;
    }
  }
  return undefined;
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

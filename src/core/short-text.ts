/**
 * The first `max` characters of a text, as a string of its own. A JavaScript engine cuts a
 * string by pointing into it (V8's sliced strings), so a short cut of a long name kept for
 * later (a failed record's name, for the end of a run) would keep the whole name, and a run
 * of thousands of long names alive. A copy holds only what it shows.
 */
export function shortText(text: string, max: number): string {
  const cut = text.length > max ? text.slice(0, max) : text;
  return cut.length === text.length && text.length < 13
    ? text
    : Buffer.from(cut, 'utf16le').toString('utf16le');
}

/**
 * A line of text too wide for `width` columns, broken at spaces, its continuations at its own
 * indent. A word wider than the width (a path, a URL) is left whole on a line of its own: it
 * must still be copied as it is.
 */
export function wrapText(line: string, width: number): string[] {
  const indent = /^ */.exec(line)![0];
  const words = line.slice(indent.length).split(' ');
  const lines: string[] = [];
  let current = indent;
  for (const word of words) {
    if (current.trim() !== '' && current.length + 1 + word.length > width) {
      lines.push(current);
      current = indent + word;
    } else current = current.trim() === '' ? indent + word : `${current} ${word}`;
  }
  lines.push(current);
  return lines;
}

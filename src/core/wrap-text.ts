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

/**
 * A line as it fits a terminal `width` columns wide (none: whole), broken at spaces, its
 * continuations under `indent`: what every line petstore writes for a person goes through.
 */
export function fitLine(line: string, width: number | undefined, indent = ''): string {
  if (width === undefined || line.length <= width) return line;
  const [first, ...rest] = wrapText(line, width);
  if (rest.length === 0) return first!;
  const continued = wrapText(rest.join(' '), Math.max(20, width - indent.length));
  return [first, ...continued.map((part) => indent + part)].join('\n');
}

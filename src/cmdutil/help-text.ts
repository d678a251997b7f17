/** Help is read at 80 columns and more: prose is wrapped to fit the narrowest. */
const WIDTH = 78;

function wrap(text: string): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line !== '' && line.length + 1 + word.length > WIDTH) {
      lines.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') lines.push(line);
  return lines;
}

/**
 * The text a command adds after its help, with its prose paragraphs wrapped at 78 columns:
 * a paragraph is a run of lines that start at the margin; indented lines (examples) and
 * headings ("Examples:") stay as written.
 */
export function helpProse(text: string): string {
  return text
    .split('\n\n')
    .map((block) => {
      const lines = block.split('\n');
      const prose = lines.every((line) => line !== '' && !/^\s/.test(line));
      const heading = lines.length === 1 && lines[0]!.endsWith(':');
      return prose && !heading ? wrap(lines.join(' ')).join('\n') : block;
    })
    .join('\n\n');
}

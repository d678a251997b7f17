/**
 * stderr as a person would read it: in JSON mode (stderr a pipe, JSON output) each warning and
 * note is an object; these are worded back as their text lines ("warning: ...", the note), so
 * a test of what a message says reads the same in either mode. Other lines are kept as they are.
 */
export function stderrText(stderr: string): string {
  return stderr
    .split('\n')
    .map((line) => {
      if (!line.startsWith('{"warning":') && !line.startsWith('{"note":')) return line;
      const value = JSON.parse(line) as { warning?: string; note?: string };
      return value.warning !== undefined ? `warning: ${value.warning}` : (value.note ?? line);
    })
    .join('\n');
}

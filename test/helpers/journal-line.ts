/**
 * The journal a `pets import` run named on stderr: in its JSON object ({"journal": {...}},
 * errors as JSON) or its text line ("Journal: PATH (...)").
 */
export function journalOnStderr(stderr: string): string | undefined {
  for (const line of stderr.split('\n')) {
    if (line.startsWith('{"journal":')) {
      return (JSON.parse(line) as { journal: { path: string } }).journal.path;
    }
  }
  return /^Journal: (\S+) /m.exec(stderr)?.[1];
}

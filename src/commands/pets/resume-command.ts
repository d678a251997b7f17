/** A path as a shell reads it: as is when it holds nothing the shell would act on. */
function shellWord(text: string): string {
  return /^[\w@%+=:,./-]+$/.test(text) ? text : `'${text.replaceAll("'", `'\\''`)}'`;
}

/**
 * The command that completes a journaled run, as the user would type it. A run that read
 * standard input needs that input again: the journal keeps only digests of the records.
 */
export function resumeCommand(
  journalPath: string,
  input: string,
  /** The global options that reach the run's service again (Target.reachedWith). */
  reachedWith: readonly string[] = [],
): string {
  const resume = `--resume ${shellWord(journalPath)}`;
  const petstore = ['petstore', ...reachedWith.map(shellWord)].join(' ');
  return input === '-'
    ? `... | ${petstore} pets import - ${resume}`
    : `${petstore} pets import ${resume}`;
}

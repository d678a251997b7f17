export interface ColorInputs {
  /** `--no-color` was given. */
  noColorFlag: boolean;
  env: Readonly<Record<string, string | undefined>>;
  isTTY: boolean;
}

/**
 * Whether to write colour: never with --no-color or a non-empty NO_COLOR (chalk 6 ignores it),
 * never with FORCE_COLOR=0 or TERM=dumb; forced by FORCE_COLOR=1..3; else only on a terminal.
 */
export function colorEnabled({ noColorFlag, env, isTTY }: ColorInputs): boolean {
  if (noColorFlag) return false;
  if (env.NO_COLOR) return false;
  const force = env.FORCE_COLOR;
  if (force === '0' || force === 'false') return false;
  if (force !== undefined && force !== '') return true;
  if (env.TERM === 'dumb') return false;
  return isTTY;
}

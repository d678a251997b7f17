import type { CommandUnknownOpts as Command } from '@commander-js/extra-typings';
import type { Context } from '../context/context.js';
import type { Env } from '../core/io.js';

/** A verb's logic: typed options in, effects only through the context. */
export type VerbRun<Options> = (ctx: Context, options: Options) => Promise<void>;

/**
 * Handed by `main` to every verb's registration. It builds the context from the global options,
 * turns the verb's flags into typed options (inside the run, so a bad flag is reported in the
 * requested output form) and runs the verb's logic with them.
 */
export type RunVerb = <Options>(
  command: Command,
  /** Flags (and the environment variables that stand in for them) to typed options. */
  toOptions: (env: Env) => Options,
  run: VerbRun<Options>,
) => Promise<void>;

/**
 * What a verb's declared flags parse to, inferred from its commander declaration: each flag is
 * declared once (name, help, parser), and its type follows from it.
 */
export type FlagsOf<Declared extends { opts(): unknown }> = ReturnType<Declared['opts']>;

/** The verb's full name, e.g. "pets list": what a test's run override is told. */
export function verbPath(command: Command): string {
  const names: string[] = [];
  for (let current = command; current.parent; current = current.parent) {
    names.unshift(current.name());
  }
  return names.join(' ');
}

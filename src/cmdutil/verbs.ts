import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from './run-verb.js';

/** Adds one verb to its group (`pets list` to `pets`). */
export type RegisterVerb = (group: Command, runVerb: RunVerb) => void;

/**
 * Adds a group's verbs, in order: only the one the command line runs when it names one of them
 * (building the others is start-up time; see cli/program.ts), else every one.
 */
export function addVerbs(
  group: Command,
  runVerb: RunVerb,
  verbs: Readonly<Record<string, RegisterVerb>>,
  named: string | undefined,
): void {
  const only = named !== undefined && Object.hasOwn(verbs, named) ? verbs[named] : undefined;
  for (const register of only ? [only] : Object.values(verbs)) register(group, runVerb);
}

/** Groups that run when named alone (`petstore history` lists), not answered with their help. */
const RUN_ALONE = new WeakSet<object>();

/** Marks a group that runs when named alone. */
export function runsAlone(group: object): void {
  RUN_ALONE.add(group);
}

/** Whether a group runs when named alone. */
export function isRunAlone(group: object): boolean {
  return RUN_ALONE.has(group);
}

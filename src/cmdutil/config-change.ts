import { maskKey } from '../config/profiles.js';
import type { ConfigData } from '../config/schema.js';
import type { RunOutput, RunServices } from '../context/context.js';

/** One value a config change sets or removes; `null` stands for absent. */
export interface ConfigValueChange {
  path: string;
  from: unknown;
  to: unknown;
}

/** The leaves of a JSON-like value, by dotted path; API keys masked. */
function leaves(value: unknown, path: string, into: Map<string, unknown>): Map<string, unknown> {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [key, child] of Object.entries(value)) {
      leaves(child, path ? `${path}.${key}` : key, into);
    }
  } else if (value !== undefined) {
    into.set(path, path.endsWith('.apiKey') && typeof value === 'string' ? maskKey(value) : value);
  }
  return into;
}

export function configChanges(before: ConfigData, after: ConfigData): ConfigValueChange[] {
  const was = leaves(before, '', new Map());
  const now = leaves(after, '', new Map());
  const paths = [...new Set([...was.keys(), ...now.keys()])].sort();
  return paths
    .filter((path) => JSON.stringify(was.get(path)) !== JSON.stringify(now.get(path)))
    .map((path) => ({ path, from: was.get(path) ?? null, to: now.get(path) ?? null }));
}

/**
 * Applies a change to the config file, or with --dry-run prints what it would change (keys
 * masked) as JSON on stdout and writes nothing. Returns whether the change was made.
 */
export async function changeConfig(
  ctx: RunOutput & RunServices,
  dryRun: boolean,
  change: (data: ConfigData) => void,
): Promise<boolean> {
  const store = await ctx.config();
  if (!dryRun) {
    await store.update(change);
    return true;
  }
  const { before, after } = await store.preview(change);
  ctx.printRequest({ dryRun: true, file: store.path, changes: configChanges(before, after) });
  ctx.notice('Dry run: nothing was written.');
  return false;
}

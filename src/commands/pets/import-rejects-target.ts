import { realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import { configDir, dataDir, stateDir } from '../../config/paths.js';
import { UsageError } from '../../core/errors.js';
import type { Env, IO } from '../../core/io.js';

/** The paths of a run that --rejects must not name. */
interface RunPaths {
  rejects?: string | undefined;
  file?: string | undefined;
  journal?: string | undefined;
}

/**
 * Where --rejects may not write: over the input, the journal, what stdout or stderr writes to,
 * or a file petstore keeps. Checked before anything is read or sent.
 */
export function refuseRejectsTarget(
  options: RunPaths,
  streamTarget: IO['streamTarget'],
  env: Env,
): void {
  refuseRejectsOverInput(options);
  refuseRejectsOverOutput(options, streamTarget, env);
}

/**
 * --rejects naming what standard output or standard error writes to, by any name
 * (`/dev/stdout`, the file `> out.ndjson` made): the rejects would take the place of the
 * created pets' lines, or be mixed into them or into the run's messages; `-`, which names no
 * stream here (a file named `-` would be made); or a file petstore keeps (the history, a
 * journal, the config). Refused, nothing sent.
 */
function refuseRejectsOverOutput(
  options: RunPaths,
  streamTarget: IO['streamTarget'],
  env: Env,
): void {
  const { rejects } = options;
  if (rejects === undefined) return;
  if (rejects === '-') {
    throw new UsageError(
      '--rejects - names no file: standard output carries the created pets; nothing was sent',
      { hint: 'Give the rejects a file of their own, e.g. --rejects rejects.csv.' },
    );
  }
  const own = [stateDir(env), configDir(env), dataDir(env)].find((folder) =>
    isInside(realPath(rejects), realPath(folder)),
  );
  if (own !== undefined) {
    throw new UsageError(
      `--rejects names a file in ${own}, where petstore keeps its own (the history, journals, the config); nothing was sent`,
      { hint: 'Give the rejects a file of their own, e.g. --rejects rejects.csv.' },
    );
  }
  let target: { dev: number; ino: number };
  try {
    target = statSync(rejects);
  } catch {
    return;
  }
  for (const [fd, stream, lost] of [
    [1, 'standard output', "the created pets' lines would be lost among the rejects"],
    [2, 'standard error', "the rejects would be mixed into the run's messages"],
  ] as const) {
    const written = streamTarget?.(fd);
    if (written === undefined || target.dev !== written.dev || target.ino !== written.ino) continue;
    throw new UsageError(
      `--rejects names what ${stream} writes to (${rejects}): ${lost}; nothing was sent`,
      { hint: 'Give the rejects a file of their own, e.g. --rejects rejects.csv.' },
    );
  }
}

/** The path with its links resolved, as far as it exists. */
function realPath(path: string): string {
  const absolute = resolve(path);
  try {
    return realpathSync(absolute);
  } catch {
    // Not there yet: its folder resolved, as the file will be made in it.
    try {
      return join(realpathSync(dirname(absolute)), basename(absolute));
    } catch {
      return absolute;
    }
  }
}

function isInside(path: string, folder: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}

/** The same file, through any link or relative path. */
function sameFile(a: string, b: string): boolean {
  const real = (path: string) => {
    try {
      return realpathSync(path);
    } catch {
      return resolve(path);
    }
  };
  return real(a) === real(b);
}

/**
 * --rejects naming the input would replace the sheet by its rejects, and naming the journal
 * would leave the run no journal: refused, nothing sent.
 */
function refuseRejectsOverInput(options: RunPaths): void {
  const { rejects, file, journal } = options;
  if (rejects === undefined) return;
  if (file !== undefined && file !== '-' && sameFile(rejects, file)) {
    throw new UsageError(
      `--rejects names the input, ${file}: it would be replaced; nothing was sent`,
      { hint: 'Name another file for the rejects, e.g. --rejects rejects.csv.' },
    );
  }
  // The rejects are written before the journal is made: the journal would then find its file
  // taken by them.
  if (journal !== undefined && sameFile(rejects, journal)) {
    throw new UsageError(
      `--rejects and --journal name the same file, ${journal}; nothing was sent`,
      { hint: 'Give each a file of its own, e.g. --rejects rejects.csv.' },
    );
  }
}

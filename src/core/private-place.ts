import { realpathSync, statSync, type Stats } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';

/**
 * Whether other users could change, or read, a file petstore reads keys and URLs from, as ssh
 * judges `~/.ssh`: the file and its folder must be owned by this user (or root) and writable by
 * no one else, and no folder above may let others rename what is under it (writable by others
 * without the sticky bit of /tmp). A file others can only read is a warning. Petstore never
 * changes the mode of a folder or file it did not create: it says what to run instead.
 */

export interface Exposure {
  /** refuse: others could change what is read (a URL pointed elsewhere collects the key). */
  kind: 'refuse' | 'warn';
  message: string;
  hint: string;
}

/** Group or others may write. */
const WRITABLE_BY_OTHERS = 0o022;
const READABLE_BY_OTHERS = 0o044;
const STICKY = 0o1000;

/** A mode as `ls -l`'s octal reading shows it: 600, 755, 1777. */
export function modeText(mode: number): string {
  return (mode & 0o7777).toString(8);
}

function stats(path: string): Stats | undefined {
  return statSync(path, { throwIfNoEntry: false });
}

function ownerProblem(info: Stats, me: number): string | undefined {
  return info.uid === me || info.uid === 0
    ? undefined
    : `it belongs to another user (uid ${info.uid})`;
}

/**
 * What is wrong with a folder that holds such a file (or will), if anything: it must be this
 * user's (or root's) and writable by no one else; no folder above it may be another user's,
 * nor writable by others without the sticky bit of /tmp (they could rename what is under it).
 */
function folderProblem(folder: string, me: number): { path: string; why: string } | undefined {
  const info = stats(folder);
  if (info === undefined) return undefined;
  const owner = ownerProblem(info, me);
  if (owner) return { path: folder, why: owner };
  if (info.mode & WRITABLE_BY_OTHERS) {
    return { path: folder, why: `other users can write it (mode ${modeText(info.mode)})` };
  }
  for (let child = folder, parent = dirname(folder); parent !== child;) {
    const above = stats(parent);
    if (above) {
      const aboveOwner = ownerProblem(above, me);
      if (aboveOwner) return { path: parent, why: `${aboveOwner}, who can replace ${folder}` };
      if (above.mode & WRITABLE_BY_OTHERS && !(above.mode & STICKY)) {
        return {
          path: parent,
          why: `other users can write it (mode ${modeText(above.mode)}), so they can replace ${folder}`,
        };
      }
    }
    child = parent;
    parent = dirname(parent);
  }
  return undefined;
}

/** The path with every link resolved (its folder's, when it does not exist yet). */
function realPath(path: string): string {
  try {
    return realpathSync(path);
  } catch {
    try {
      return join(realpathSync(dirname(path)), basename(path));
    } catch {
      return path;
    }
  }
}

/**
 * How others are exposed to `file` (holding keys or URLs, in `what`), judged before it is
 * read (a file that is not there is not read: undefined) or written; undefined when only this
 * user can change it. Where there are no POSIX owners (Windows), undefined.
 */
export function exposureOf(
  file: string,
  what: string,
  use: 'read' | 'write',
): Exposure | undefined {
  const me = process.getuid?.();
  if (me === undefined) return undefined;
  const given = resolve(file);
  // Judged where it is given and where its links lead: either place, changed, changes it.
  const path = realPath(given);
  const info = stats(path);
  if (info === undefined && use === 'read') return undefined;
  // Named as the user gave it, and where it leads when that is elsewhere.
  const named = path === given ? given : `${given} (a link to ${path})`;
  const folders = [...new Set([dirname(given), dirname(path)])];
  const folder = folders.map((place) => folderProblem(place, me)).find(Boolean);
  if (folder) {
    return {
      kind: 'refuse',
      message: `petstore will not use ${named}: ${folder.path} is not private (${folder.why}); anyone who can change ${what} could point petstore elsewhere and collect the key`,
      hint: `Keep it in a folder only you can write (unset PETSTORE_CONFIG_DIR for the default ~/.config/petstore), or, if ${folder.path} is yours alone: chmod go-w ${folder.path}`,
    };
  }
  if (info === undefined) return undefined;
  const owner = ownerProblem(info, me);
  if (owner || info.mode & WRITABLE_BY_OTHERS) {
    return {
      kind: 'refuse',
      message: `petstore will not use ${named}: ${owner ?? `other users can write it (mode ${modeText(info.mode)})`}; anyone who can change ${what} could point petstore elsewhere and collect the key`,
      hint: owner
        ? `Use a config of your own (PETSTORE_CONFIG_DIR), or have its owner give it to you.`
        : `If the file is as you left it: chmod 600 ${path}`,
    };
  }
  if (info.mode & READABLE_BY_OTHERS) {
    return {
      kind: 'warn',
      message: `other users can read ${named} (mode ${modeText(info.mode)})`,
      hint: `chmod 600 ${path}`,
    };
  }
  return undefined;
}

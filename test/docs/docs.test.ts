import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

/**
 * The documentation: short where it must be, generated where the program holds the facts, and
 * every link and example true. (The examples run in test/e2e/doc-examples.e2e.test.ts.)
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function markdownFiles(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return markdownFiles(path);
    return entry.name.endsWith('.md') ? [path] : [];
  });
}

const DOCUMENTS = [
  join(ROOT, 'README.md'),
  join(ROOT, 'ARCHITECTURE.md'),
  join(ROOT, 'CONTRIBUTING.md'),
  ...markdownFiles(join(ROOT, 'docs')),
];
const name = (path: string) => relative(ROOT, path);

/** The text outside fenced code blocks, line by line (with their numbers). */
function proseLines(text: string): { line: string; number: number }[] {
  let fenced = false;
  return text.split('\n').flatMap((line, index) => {
    if (line.startsWith('```')) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ line, number: index + 1 }];
  });
}

/** GitHub's anchor for a heading. */
function slug(heading: string): string {
  return heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .replace(/\s/g, '-');
}

function anchorsOf(path: string): Set<string> {
  const text = readFileSync(path, 'utf8');
  return new Set(
    proseLines(text).flatMap(({ line }) => {
      const heading = /^#{1,6} (.*)$/.exec(line);
      return heading ? [slug(heading[1]!)] : [];
    }),
  );
}

describe('the documentation', () => {
  it('README.md is read in minutes: at most 200 lines, none over 120 characters outside code', () => {
    const text = readFileSync(join(ROOT, 'README.md'), 'utf8');
    expect(text.trimEnd().split('\n').length).toBeLessThanOrEqual(200);
    const long = proseLines(text).filter(({ line }) => line.length > 120 && !line.startsWith('|'));
    expect(long.map(({ number }) => number)).toEqual([]);
  });

  it('docs/commands/ and docs/reference/ are what the program says (npm run docs)', () => {
    // Throws, with the files that differ, when a page is out of date.
    execFileSync(process.execPath, [join(ROOT, 'scripts/gen-docs.mjs'), '--check'], {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }, 60_000);

  it('every relative link leads to a file that exists, and to a heading it has', () => {
    const broken: string[] = [];
    for (const path of DOCUMENTS) {
      for (const { line, number } of proseLines(readFileSync(path, 'utf8'))) {
        for (const match of line.matchAll(/\]\(([^)\s]+)\)/g)) {
          const target = match[1]!;
          if (/^[a-z]+:/i.test(target)) continue;
          const [file, anchor] = target.split('#') as [string, string | undefined];
          const resolved = file === '' ? path : join(dirname(path), file);
          if (!existsSync(resolved)) broken.push(`${name(path)}:${number} ${target}`);
          else if (anchor && resolved.endsWith('.md') && !anchorsOf(resolved).has(anchor)) {
            broken.push(`${name(path)}:${number} ${target} (no such heading)`);
          }
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('points nowhere outside the repository', () => {
    for (const path of [...DOCUMENTS, join(ROOT, 'eslint.config.js')]) {
      const text = readFileSync(path, 'utf8');
      expect(text, name(path)).not.toMatch(/\.\.\/shared|cli-contract\.md|DEVELOPERS\.md/);
    }
  });

  it('every example of a petstore command runs in a test, or says why it cannot', () => {
    const unmarked: string[] = [];
    for (const path of DOCUMENTS) {
      const lines = readFileSync(path, 'utf8').split('\n');
      for (let at = 0; at < lines.length; at++) {
        const fence = /^```(\w*)$/.exec(lines[at]!);
        if (!fence || fence[1] === '') continue;
        let end = at + 1;
        while (end < lines.length && !lines[end]!.startsWith('```')) end++;
        const body = lines.slice(at + 1, end).join('\n');
        const before = lines.slice(Math.max(0, at - 2), at).join('\n');
        const runs = fence[1] === 'console';
        const marked = /<!-- illustration: [^>]+-->/.test(before);
        if (/(^|\s|\$ )petstore /m.test(body) && !runs && !marked && fence[1] !== 'text') {
          unmarked.push(`${name(path)}:${at + 1}`);
        }
        at = end;
      }
    }
    expect(unmarked).toEqual([]);
  });
});

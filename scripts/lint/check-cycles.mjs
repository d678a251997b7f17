// Fails when any two files of src/ import each other, directly or through others. Counts every
// kind of import (type-only and dynamic too): a cycle of types is still a tangle of layers.
// Usage: node scripts/lint/check-cycles.mjs [FOLDER]   (default: src/)
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const root = resolve(import.meta.dirname, '../..');
const src = resolve(process.argv[2] ?? join(root, 'src'));

function sourceFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** Every file below the folder that is not TypeScript the linters read (.mts, .js…). */
function otherFiles(folder) {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return otherFiles(path);
    return entry.name.endsWith('.ts') && !/\.[mc]ts$/.test(entry.name) ? [] : [path];
  });
}

// The layer rule and this check read .ts files: another kind would escape both.
const unread = otherFiles(src);
if (unread.length > 0) {
  console.error(
    `only .ts files belong in src/ (the layer rule reads no other): ${unread.map((f) => relative(root, f)).join(', ')}`,
  );
  process.exit(1);
}

const files = sourceFiles(src);
const known = new Set(files);
const edges = new Map(
  files.map((file) => {
    const info = ts.preProcessFile(readFileSync(file, 'utf8'), true, true);
    const targets = info.importedFiles
      .map(({ fileName }) => fileName)
      .filter((name) => name.startsWith('.'))
      .map((name) => resolve(dirname(file), name).replace(/\.js$/, '.ts'))
      .filter((target) => known.has(target));
    return [file, [...new Set(targets)]];
  }),
);

// Tarjan's strongly connected components: each component of more than one file is a cycle.
let index = 0;
const indices = new Map();
const lowlinks = new Map();
const stack = [];
const onStack = new Set();
const cycles = [];
function visit(file) {
  indices.set(file, index);
  lowlinks.set(file, index);
  index++;
  stack.push(file);
  onStack.add(file);
  for (const target of edges.get(file)) {
    if (!indices.has(target)) {
      visit(target);
      lowlinks.set(file, Math.min(lowlinks.get(file), lowlinks.get(target)));
    } else if (onStack.has(target)) {
      lowlinks.set(file, Math.min(lowlinks.get(file), indices.get(target)));
    }
  }
  if (lowlinks.get(file) === indices.get(file)) {
    const component = [];
    let member;
    do {
      member = stack.pop();
      onStack.delete(member);
      component.push(member);
    } while (member !== file);
    const selfImport = edges.get(file).includes(file);
    if (component.length > 1 || selfImport) cycles.push(component);
  }
}
for (const file of files) if (!indices.has(file)) visit(file);

if (cycles.length > 0) {
  console.error(`import cycles in ${relative(root, src) || '.'} (${cycles.length}):`);
  for (const cycle of cycles) {
    console.error(`  ${cycle.map((file) => relative(root, file)).join(' <-> ')}`);
  }
  process.exit(1);
}
console.log(`no import cycles among ${files.length} files of ${relative(root, src)}`);

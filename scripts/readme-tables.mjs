// Writes the README's reference tables (environment, exit codes, output formats, profiles)
// from src/help/reference.ts, the data `petstore help TOPIC` and the man page show, between
// the markers <!-- table:NAME --> and <!-- /table -->. Run after changing that data:
// npm run docs:tables (a test fails while the README and the data differ).
import { build } from 'esbuild';
import { Buffer } from 'node:buffer';
import { readFile, writeFile } from 'node:fs/promises';
import { format } from 'prettier';

const bundled = await build({
  entryPoints: ['src/help/reference.ts'],
  bundle: true,
  write: false,
  format: 'esm',
  platform: 'node',
  define: { __PETSTORE_VERSION__: '"0"' },
  logLevel: 'warning',
});
const reference = await import(
  `data:text/javascript;base64,${Buffer.from(bundled.outputFiles[0].text).toString('base64')}`
);

const TABLES = {
  environment: reference.ENVIRONMENT_TABLE,
  'exit-codes': reference.EXIT_CODES_TABLE,
  output: reference.OUTPUT_TABLE,
  profiles: reference.PROFILES_TABLE,
};

const cell = (text) => text.replaceAll('|', '\\|');
function markdown({ columns, rows }) {
  return [
    `| ${columns.join(' | ')} |`,
    `| ${columns.map(() => '---').join(' | ')} |`,
    ...rows.map((row) => `| ${row.map(cell).join(' | ')} |`),
  ].join('\n');
}

const path = new URL('../README.md', import.meta.url);
let readme = await readFile(path, 'utf8');
for (const [name, table] of Object.entries(TABLES)) {
  const pattern = new RegExp(`(<!-- table:${name} -->)[\\s\\S]*?(<!-- /table -->)`);
  if (!pattern.test(readme)) throw new Error(`README.md has no <!-- table:${name} --> marker`);
  readme = readme.replace(
    pattern,
    (_match, open, close) => `${open}\n\n${markdown(table)}\n\n${close}`,
  );
}
await writeFile(path, await format(readme, { filepath: 'README.md' }));

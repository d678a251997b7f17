import { fitToWidth } from '../../src/cmdutil/help-text.js';
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { HELP_TOPIC_NAMES, topicText } from '../../src/help/topics.js';
import {
  ENVIRONMENT_TABLE,
  EXIT_CODE_SHORT,
  EXIT_CODES_TABLE,
  OUTPUT_TABLE,
  PROFILES_TABLE,
  type ReferenceTable,
} from '../../src/help/reference.js';
import { GLOBAL_OPTIONS, OTHER_ENVIRONMENT } from '../../src/context/global-options.js';
import { main } from '../../src/main.js';
import { ExitCode } from '../../src/output/report-error.js';
import { fakeIO } from '../helpers/fake-io.js';
import { freshHome } from '../helpers/run-cli.js';

/** The cells of the markdown table between a document's markers for that table. */
/** The text of a document's `<!-- KIND:NAME -->` ... `<!-- /KIND -->` section. */
function sectionOf(path: string, kind: 'table' | 'list', name: string): string {
  const text = readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');
  const section = new RegExp(`<!-- ${kind}:${name} -->([\\s\\S]*?)<!-- /${kind} -->`).exec(text);
  expect(section, `${path} has a <!-- ${kind}:${name} --> section`).not.toBeNull();
  return section![1]!.trim();
}

function documentTable(path: string, name: string): string[][] {
  return sectionOf(path, 'table', name)
    .split('\n')
    .filter((line, index) => index !== 1)
    .map((line) =>
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim().replaceAll('\\|', '|')),
    );
}

/** The rows of a document's `<!-- list:NAME -->` section: `- **code**: meaning`, wrapped. */
function documentList(path: string, name: string): string[][] {
  return sectionOf(path, 'list', name)
    .split(/\n(?=- )/)
    .map((item) => {
      const [, first, rest] = /^- \*\*(.*?)\*\*: ([\s\S]*)$/.exec(item.replace(/\n\s+/g, ' '))!;
      return [first!, rest!];
    });
}

const TABLES: [string, ReferenceTable][] = [
  ['environment', ENVIRONMENT_TABLE],
  ['exit-codes', EXIT_CODES_TABLE],
  ['output', OUTPUT_TABLE],
  ['profiles', PROFILES_TABLE],
];

describe('help topics and the documents show the same tables', () => {
  it("the README's exit codes, and the guides' tables, are the data (regenerate: npm run docs)", () => {
    // The README lists them (a table's widest row made lines of 200 characters).
    expect(documentList('README.md', 'exit-codes')).toEqual(
      EXIT_CODES_TABLE.rows.map(([code, ...rest]) => [code, rest.join('; ')]),
    );
    const shown: [string, string, ReferenceTable][] = [
      ['docs/output.md', 'output', OUTPUT_TABLE],
      ['docs/profiles.md', 'profiles', PROFILES_TABLE],
    ];
    for (const [path, name, table] of shown) {
      expect(documentTable(path, name)).toEqual([table.columns, ...table.rows]);
    }
  });

  it.each(TABLES)('petstore help %s shows every row of its table', async (name, table) => {
    const io = fakeIO();
    expect(await main(['help', name], io, { HOME: freshHome() })).toBe(0);
    // As the topic is written: fitted to 80 columns where there is no terminal.
    expect(io.out()).toBe(fitToWidth(topicText(name) ?? '', 80));
    const flat = io.out().replace(/\s+/g, ' ');
    for (const row of table.rows) {
      for (const cell of row) expect(flat).toContain(cell.replace(/`/g, ''));
    }
  });

  it('the environment table names every variable the program reads', () => {
    const named = ENVIRONMENT_TABLE.rows.map((row) => row[1]).join(' ');
    const read = [...GLOBAL_OPTIONS.flatMap((o) => (o.env ? [o.env] : [])), ...OTHER_ENVIRONMENT];
    for (const variable of read) expect(named).toContain(`\`${variable}\``);
  });

  it('the exit-code table, and the short list in --help, have every exit code', () => {
    expect(EXIT_CODES_TABLE.rows.map((row) => Number(row[0]))).toEqual(Object.values(ExitCode));
    expect(EXIT_CODE_SHORT.map((item) => Number(item.split(' ')[0]))).toEqual(
      Object.values(ExitCode),
    );
  });

  it('answers a topic with global flags around it, as commands are', async () => {
    for (const argv of [
      ['-q', 'help', 'exit-codes'],
      ['help', 'exit-codes', '--no-color'],
    ]) {
      const io = fakeIO();
      expect(await main(argv, io, { HOME: freshHome() })).toBe(0);
      expect(io.out()).toBe(topicText('exit-codes'));
    }
  });

  it('the program help names the topics, and an unknown topic is a usage error', async () => {
    const help = fakeIO();
    await main(['--help'], help, { HOME: freshHome() });
    expect(help.out()).toContain(`Help topics: ${HELP_TOPIC_NAMES.join(', ')}`);
    const io = fakeIO();
    expect(await main(['help', 'colours'], io, { HOME: freshHome() })).toBe(2);
    expect(io.err()).toContain('environment, exit-codes, output, profiles');
  });
});

describe('the man page', () => {
  // Kept in the tree (npm run docs), so a clone reads it: man ./docs/man/man1/petstore.1.
  const path = new URL('../../docs/man/man1/petstore.1', import.meta.url);
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    man?: string[];
  };

  it('is built, listed in package.json, and holds every command and topic', () => {
    expect(pkg.man).toEqual(['./docs/man/man1/petstore.1']);
    const page = readFileSync(path, 'utf8');
    for (const section of ['NAME', 'SYNOPSIS', 'COMMANDS', 'ENVIRONMENT', 'EXIT STATUS', 'FILES']) {
      expect(page).toContain(`\n.SH ${section}\n`);
    }
    expect(page).toContain('.SS "petstore pets list"');
    expect(page).toContain('\\-\\-max\\-items');
    // Text lines never start with a dot or a quote roff would take for a request.
    const text = page.split('\n').filter((line) => !/^\.(TH|SH|SS|TP|I|B|nf|fi)\b/.test(line));
    expect(text.filter((line) => /^[.']/.test(line))).toEqual([]);
  });

  it.runIf(existsSync('/usr/bin/groff'))('renders with groff without a warning', () => {
    const rendered = execFileSync('groff', ['-man', '-Tutf8', '-ww', '-z', path.pathname], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(rendered).toBe('');
  });
});

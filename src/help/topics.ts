import {
  ENVIRONMENT_TABLE,
  EXIT_CODES_TABLE,
  OUTPUT_TABLE,
  PROFILES_TABLE,
  type ReferenceTable,
} from './reference.js';

interface HelpTopic {
  summary: string;
  intro: string;
  table: ReferenceTable;
  notes: string[];
}

/** `petstore help TOPIC`: the reference tables, with what a reader needs around them. */
export const HELP_TOPICS: Record<string, HelpTopic> = {
  environment: {
    summary: 'global options and the environment variables behind them',
    intro:
      'Options go before or after the command. Precedence: flag > environment > stored profile > built-in default.',
    table: ENVIRONMENT_TABLE,
    notes: ['An empty variable counts as unset.'],
  },
  'exit-codes': {
    summary: 'what each exit code means',
    intro: 'Every run ends with one of these codes; scripts can rely on them.',
    table: EXIT_CODES_TABLE,
    notes: [
      'Errors on stderr read "petstore: <message> (<code>, HTTP <status>, request id <id>)", with a "hint:" line where one helps; the parenthesis holds what the service answered (code and status of its Error body, its request id), so an error of petstore\'s own has none.',
      'stderr speaks to whoever reads it: when stderr is a terminal, errors are text whatever stdout is. When stderr is not a terminal and the output is json or ndjson, an error is one JSON object instead: {"code", "message", "status"}, and "hint", "requestId", "printed" (items printed before a list failed) and "idempotencyKey" (of a write whose outcome is unknown) where they apply. "status" is the HTTP status the service answered, or 0 when no answer decided the error (a bad flag, no key, a network failure). --error-format text|json (PETSTORE_ERROR_FORMAT) forces either.',
    ],
  },
  output: {
    summary: 'output formats, --fields, and what reaches stdout',
    intro:
      'Choose with -o/--output FORMAT or PETSTORE_OUTPUT. stdout carries data only; notices, warnings and errors go to stderr.',
    table: OUTPUT_TABLE,
    notes: [
      'int64 values keep every digit in every format.',
      '--fields id,name keeps only those fields, in that order, in every format.',
      'Text from the service is stripped of terminal control and invisible characters; JSON escapes them.',
      'Colour only on a terminal: never with --no-color or NO_COLOR, forced by FORCE_COLOR=1.',
    ],
  },
  profiles: {
    summary: 'which service a command talks to, and where keys live',
    intro:
      'Which profile: --profile > PETSTORE_PROFILE > the one chosen with "petstore profile use" > sandbox.',
    table: PROFILES_TABLE,
    notes: [
      'URLs and keys follow the same order: flag > environment > the stored profile.',
      'Keys are shown only masked; "petstore auth status" says where each one lives.',
    ],
  },
};

export const HELP_TOPIC_NAMES = Object.keys(HELP_TOPICS);

/** Help is read at 80 columns and more. */
const TEXT_WIDTH = 78;

/** Markdown code spans as a terminal shows them: the text itself. */
function plain(cell: string): string {
  return cell.replace(/`([^`]*)`/g, '$1');
}

function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(' ')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      lines.push(line);
      line = word;
    } else {
      line = line === '' ? word : `${line} ${word}`;
    }
  }
  lines.push(line);
  return lines;
}

/**
 * A table as aligned columns, the last one wrapping at the text width; when the columns before
 * it leave it too little room, as a list: each row's first cells on a line, its last below.
 */
export function tableText(table: ReferenceTable): string {
  const rows = [table.columns.map((c) => c.toUpperCase()), ...table.rows.map((r) => r.map(plain))];
  const widths = table.columns.map((_, index) =>
    index === table.columns.length - 1 ? 0 : Math.max(...rows.map((row) => row[index]!.length)),
  );
  const indent = widths.slice(0, -1).reduce((sum, width) => sum + width + 2, 2);
  if (TEXT_WIDTH - indent < 30) {
    return rows
      .slice(1)
      .flatMap((row) => [
        `  ${row.slice(0, -1).filter(Boolean).join('  ')}`,
        ...wrap(row.at(-1)!, TEXT_WIDTH - 6).map((line) => `      ${line}`),
      ])
      .join('\n');
  }
  const lastWidth = Math.max(30, TEXT_WIDTH - indent);
  const lines: string[] = [];
  for (const row of rows) {
    const lead = row
      .slice(0, -1)
      .map((cell, index) => cell.padEnd(widths[index]! + 2))
      .join('');
    const [first, ...rest] = wrap(row.at(-1)!, lastWidth);
    lines.push(`  ${lead}${first}`.trimEnd());
    for (const more of rest) lines.push(`${' '.repeat(indent)}${more}`);
  }
  return lines.join('\n');
}

/** Other names a topic answers to: what a sub-command's help points at. */
const TOPIC_ALIASES: Record<string, string> = { globals: 'environment' };

export function topicText(asked: string): string | undefined {
  const name = Object.hasOwn(TOPIC_ALIASES, asked) ? TOPIC_ALIASES[asked]! : asked;
  const topic = Object.hasOwn(HELP_TOPICS, name) ? HELP_TOPICS[name] : undefined;
  if (!topic) return undefined;
  return [
    `petstore help ${name}: ${topic.summary}`,
    '',
    wrap(topic.intro, TEXT_WIDTH).join('\n'),
    '',
    tableText(topic.table),
    '',
    ...topic.notes.flatMap((note) =>
      wrap(note, TEXT_WIDTH - 2).map((line, i) => (i ? '  ' : '- ') + line),
    ),
    '',
  ].join('\n');
}

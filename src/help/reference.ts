import { GLOBAL_OPTIONS } from '../context/global-options.js';
import { formatSpec, OUTPUT_FORMATS, type OutputFormat } from '../output/formats.js';
import { ExitCode } from '../output/report-error.js';

/**
 * The reference tables that `petstore help TOPIC`, the man page and the README all show, kept
 * once here so they cannot drift apart (a test compares the README's tables with them). Cells
 * are markdown: `code` spans are shown as plain text on a terminal.
 */
export interface ReferenceTable {
  columns: string[];
  rows: string[][];
}

/** `--output <format>` as the tables write it: `--output FORMAT`. */
function flagsAsWritten(flags: string): string {
  return flags.replace(/<([^>]+)>/g, (_match, name: string) => name.toUpperCase());
}

const code = (text: string) => `\`${text}\``;

export const ENVIRONMENT_TABLE: ReferenceTable = {
  columns: ['option', 'environment', 'meaning'],
  rows: [
    ...GLOBAL_OPTIONS.map((option) => [
      code(flagsAsWritten(option.flags)),
      option.env ? code(option.env) : '',
      option.meaning,
    ]),
    [
      '(none: never on argv)',
      code('PETSTORE_API_KEY'),
      'API key, sent as `Authorization: Bearer …`; overrides the stored one',
    ],
    ['', '`NO_COLOR`, `FORCE_COLOR`', 'no colour at all; colour even when piped (`1`, `2`, `3`)'],
    [
      '`--batch-id ID` (`pets import`)',
      code('PETSTORE_BATCH_ID'),
      "the batch an import's keys are made from: the same batch and input send the same keys, so a CI job run again creates nothing twice",
    ],
    [
      '`--key-window DURATION` (`pets import --resume`)',
      code('PETSTORE_KEY_WINDOW'),
      'how long the service keeps an Idempotency-Key (default `24h`): a resume refuses to send again keys first sent longer ago, less 1 h',
    ],
    ['', code('CI'), 'set (and not `false` or `0`): as `--no-input`, never ask'],
    [
      '(`petstore history`)',
      code('PETSTORE_HISTORY'),
      '`off`: record no writes in the history (default `on`; docs/history.md)',
    ],
    [
      '(`petstore history`)',
      code('PETSTORE_HISTORY_RETENTION'),
      'how long the history keeps a write (default `90d`; `forever` keeps all): older ones go when a run records its first',
    ],
    [
      '(state folder)',
      code('XDG_STATE_HOME'),
      'journals and the history of writes: `$XDG_STATE_HOME/petstore/` (`~/.local/state/...`)',
    ],
    [
      '(config folder)',
      code('PETSTORE_CONFIG_DIR'),
      'where `config.json` lives (default `$XDG_CONFIG_HOME/petstore`, `~/.config/petstore`)',
    ],
    [
      '(data folder)',
      code('XDG_DATA_HOME'),
      "the sandbox profile's data: `$XDG_DATA_HOME/petstore/sandbox.db` (`~/.local/share/...`)",
    ],
    ['', '`HTTP_PROXY`, `HTTPS_PROXY`, `NO_PROXY`', 'proxies'],
    [
      '',
      '`TRACEPARENT`, `TRACESTATE`',
      "the W3C trace every request joins (a CI step's); without it each run starts its own. Its id is in the history (`history --trace ID`)",
    ],
    [
      '(cache folder)',
      '`NODE_COMPILE_CACHE`, `NODE_DISABLE_COMPILE_CACHE`',
      "Node's compile cache, where Node keeps petstore's compiled code between runs (default `node-compile-cache` in the temporary folder); `NODE_DISABLE_COMPILE_CACHE=1`: none kept",
    ],
  ],
};

/** Each exit code in a word or two, for the program's own --help. */
const EXIT_CODE_LABELS: Record<keyof typeof ExitCode, string> = {
  ok: 'ok',
  unexpected: 'bug',
  usage: 'usage',
  auth: 'auth',
  notFound: 'not found',
  invalid: 'rejected',
  service: 'service failed',
  network: 'network',
  smokeFailed: 'smoke failed',
  tryLater: 'try later',
  interrupted: 'interrupted (SIGINT)',
  outputClosed: 'stdout closed',
  terminated: 'terminated (SIGTERM)',
};

/** "0 ok", "1 bug", ...: every exit code, short. */
export const EXIT_CODE_SHORT = (Object.keys(EXIT_CODE_LABELS) as (keyof typeof ExitCode)[]).map(
  (name) => `${ExitCode[name]} ${EXIT_CODE_LABELS[name]}`,
);

const EXIT_CODE_MEANINGS: Record<keyof typeof ExitCode, string> = {
  ok: 'success (an empty list is success)',
  unexpected: 'unexpected failure: a bug in petstore; rerun with `--verbose` and report it',
  usage:
    'usage: bad flags, arguments, input or proxy settings, nothing sent; or the machine refused (a port in use, a file that cannot be read or written or is no regular file, a full disk under stdout)',
  auth: 'authentication: no key configured, or the service answered 401/403',
  notFound: 'not found (404)',
  invalid: 'the service rejected the request as invalid (400/409/422 and other 4xx)',
  service:
    'the service failed: 5xx, 429 after retries, or a response that breaks the interface or HTTP itself (not retried; also a later page of a list)',
  network:
    'network: connection refused, DNS, TLS, timeout, a proxy that will not pass the request on; for a write, its outcome may be unknown',
  smokeFailed: '`smoke`: one or more checks failed',
  tryLater:
    'try later (EX_TEMPFAIL): the service asked to wait (429 or 503 with Retry-After) longer than `--max-wait` allows (default 30 s); nothing more was sent, and the error says when to try again',
  interrupted: 'interrupted (Ctrl-C, SIGINT)',
  outputClosed: 'an import stopped because its stdout was closed (the reader went away)',
  terminated: 'terminated (SIGTERM)',
};

/** A two-column table from a record of meanings: each key as `label` shows it, and its meaning. */
function meaningsTable<Key extends string>(
  columns: [string, string],
  meanings: Record<Key, string>,
  label: (key: Key) => string,
): ReferenceTable {
  return {
    columns,
    rows: (Object.keys(meanings) as Key[]).map((key) => [label(key), meanings[key]]),
  };
}

export const EXIT_CODES_TABLE = meaningsTable(['code', 'meaning'], EXIT_CODE_MEANINGS, (name) =>
  String(ExitCode[name]),
);

const OUTPUT_MEANINGS = Object.fromEntries(
  OUTPUT_FORMATS.map((format) => [format, formatSpec(format).meaning]),
) as Record<OutputFormat, string>;

export const OUTPUT_TABLE = meaningsTable(['format', 'what it writes'], OUTPUT_MEANINGS, code);

export const PROFILES_TABLE: ReferenceTable = {
  columns: ['profile', 'what it is'],
  rows: [
    [
      code('sandbox'),
      'the embedded Animal Store service: no server, URL or key needed; the active profile on a fresh machine',
    ],
    [
      code('production'),
      'built in; set its URL once: `petstore profile set production --base-url URL`, then `petstore auth login` (the key goes to the OS keyring, else to the 0600 config file)',
    ],
    [code('staging'), 'built in, like `production`: for smoke checks before a release'],
    ['yours', '`petstore profile set NAME --base-url URL [--quickstart-url URL]`'],
  ],
};

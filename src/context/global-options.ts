import { defaultFormat, formatChoicesText } from '../output/formats.js';

const code = (text: string) => `\`${text}\``;

/**
 * The global options, once: the commander definitions, the environment fallbacks of the
 * settings and the help text are all made from this table.
 */
export interface GlobalOption {
  /** The commander attribute the value lands in. */
  key: GlobalOptionKey;
  flags: string;
  description: string;
  /** The environment variable that supplies the value when the flag is absent. */
  env?: string;
  /** The longer meaning `help environment` and the README give (markdown code spans). */
  meaning: string;
}

export type GlobalOptionKey =
  | 'profile'
  | 'baseUrl'
  | 'quickstartUrl'
  | 'output'
  | 'json'
  | 'color'
  | 'verbose'
  | 'quiet'
  | 'timeout'
  | 'retries'
  | 'maxWait'
  | 'allowInsecureHttp'
  | 'query'
  | 'progress'
  | 'errorFormat'
  | 'input';

export const GLOBAL_OPTIONS: readonly GlobalOption[] = [
  {
    key: 'profile',
    flags: '--profile <name>',
    description: 'profile to use',
    env: 'PETSTORE_PROFILE',
    meaning: 'which profile; else the active one (`profile use`), else `sandbox`',
  },
  {
    key: 'baseUrl',
    flags: '--base-url <url>',
    description: 'API base URL, ending with /v1',
    env: 'PETSTORE_BASE_URL',
    meaning: 'API base URL, ending with `/v1`',
  },
  {
    key: 'quickstartUrl',
    flags: '--quickstart-url <url>',
    description: 'quickstart base URL',
    env: 'PETSTORE_QUICKSTART_URL',
    meaning: 'quickstart base URL for `message send`',
  },
  {
    key: 'output',
    flags: '-o, --output <format>',
    description: formatChoicesText(),
    env: 'PETSTORE_OUTPUT',
    meaning: `${formatChoicesText(code)}; default: \`${defaultFormat(true)}\` on a terminal, \`${defaultFormat(false)}\` otherwise`,
  },
  {
    key: 'json',
    flags: '--json',
    description: 'same as --output json',
    meaning: 'same as `--output json`',
  },
  {
    key: 'color',
    flags: '--no-color',
    description: 'never write colour (also NO_COLOR)',
    meaning: 'colour only on a terminal; never with `NO_COLOR`, always with `FORCE_COLOR=1`',
  },
  {
    key: 'verbose',
    flags: '-v, --verbose',
    description: "log HTTP exchanges to stderr (key redacted), and an error's stack trace",
    meaning: 'HTTP exchanges on stderr, key redacted; on an error, its stack trace too',
  },
  {
    key: 'quiet',
    flags: '-q, --quiet',
    description: 'no notices or warnings on stderr',
    meaning: 'no notices or warnings on stderr (errors still go there)',
  },
  {
    key: 'timeout',
    flags: '--timeout <seconds>',
    description: 'per-request timeout in seconds (default 30)',
    meaning: 'per request (connect, headers, body), default 30',
  },
  {
    key: 'retries',
    flags: '--retries <n>',
    description: 'retries of safe requests (default 2)',
    meaning: 'retries of safe requests (GET), default 2, at most 10',
  },
  {
    key: 'maxWait',
    flags: '--max-wait <duration>',
    description: 'longest the service may ask to be waited for (Retry-After), else exit 75',
    env: 'PETSTORE_MAX_WAIT',
    meaning:
      'the longest wait a service may ask for (Retry-After on 429, or 503 to a read), in all, before the command stops with exit 75 (try later) saying when; default `30s`, at most `1h`',
  },
  {
    key: 'allowInsecureHttp',
    flags: '--allow-insecure-http',
    description: 'allow sending the API key over plain http to a remote host',
    meaning: 'allow sending the key over `http://` to a remote host',
  },
  {
    key: 'query',
    flags: '--query <expr>',
    description:
      'JMESPath expression applied to the JSON output (a whole list buffers; -o ndjson applies it to each row)',
    meaning:
      'a JMESPath expression applied to what the command prints as JSON; a whole list is buffered for it, `-o ndjson` applies it to each row as it comes',
  },
  {
    key: 'errorFormat',
    flags: '--error-format <form>',
    description: 'text or json: the form of errors on stderr',
    env: 'PETSTORE_ERROR_FORMAT',
    meaning:
      '`text` or `json`: the form of errors and summaries on stderr; default: text when stderr is a terminal, else JSON with `-o json`/`ndjson`',
  },
  {
    key: 'input',
    flags: '--no-input',
    description: 'never prompt for a missing value (also CI)',
    env: 'PETSTORE_NO_INPUT',
    meaning: 'never ask for a missing value, even at a terminal: it is a usage error (exit 2)',
  },
  {
    key: 'progress',
    flags: '--progress <when>',
    description: 'auto (stderr is a terminal, stdout no pipe), always or never',
    meaning:
      'a live progress line on stderr for long work: `auto` (when stderr is a terminal and stdout is not a pipe, whose reader may print to the same terminal), `always`, `never`',
  },
];

/** Environment variables read besides the options' own. */
export const OTHER_ENVIRONMENT = [
  'PETSTORE_API_KEY',
  'PETSTORE_CONFIG_DIR',
  'PETSTORE_BATCH_ID',
  'PETSTORE_KEY_WINDOW',
  'PETSTORE_HISTORY',
  'PETSTORE_HISTORY_RETENTION',
  'CI',
  'NO_COLOR',
  'FORCE_COLOR',
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'NO_PROXY',
] as const;

/** The option's description with its environment variable, as help shows it. */
export function optionHelp(option: GlobalOption): string {
  return option.env ? `${option.description} (env ${option.env})` : option.description;
}

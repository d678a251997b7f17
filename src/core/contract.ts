/**
 * Facts of the command-line contract, and the choices made where the interface says "not
 * shown", written once (the interface's own facts are in interface.ts). Help texts, flag
 * parsers, the client and the sandbox all read them from here so they cannot drift apart.
 */

/** `pets list --max-items`: any count a script could want. */
export const MAX_ITEMS = { min: 1, max: Number.MAX_SAFE_INTEGER } as const;

/** Shells that `petstore completion` writes scripts for. */
export const SHELLS = ['bash', 'zsh', 'fish'] as const;

/**
 * Help is wrapped at most this wide, at a terminal as in a pipe: lines longer than 80 columns
 * read worse, and one width lets the build's rendering answer --help everywhere but at a
 * narrower terminal (where commander wraps it to fit).
 */
export const HELP_MAX_WIDTH = 80;
export type Shell = (typeof SHELLS)[number];

/** The formats `pets import` reads (--input-format, --template). */
export const INPUT_FORMATS = ['json', 'ndjson', 'csv', 'tsv'] as const;
export type InputFormat = (typeof INPUT_FORMATS)[number];

/** `pets import FILE --concurrency N`. */
export const BULK_CONCURRENCY = { min: 1, max: 16, default: 4 } as const;
/**
 * The most one record of a `pets import` input may take, in characters: a pet is a name, a
 * category and a status, and a record far longer is no record (a quote never closed). The
 * input as a whole has no limit: it is read as it streams, and memory stays flat in its size
 * (docs/decisions/0011).
 */
export const RECORD_MAX_CHARS = 1024 * 1024;

/** `--timeout SECONDS`, per request. */
export const TIMEOUT_SECONDS = { min: 0.001, max: 3600, default: 30 } as const;
/** `--retries N`, of safe requests. */
export const RETRIES = { min: 0, max: 10, default: 2 } as const;

/** `sandbox serve --port`. */
export const PORT = { min: 0, max: 65535 } as const;
export const DEFAULT_SANDBOX_PORT = 4010;
export const DEFAULT_SANDBOX_KEY = 'sandbox-key';

/**
 * The header that makes a write safe to send again (as Stripe and the IETF draft name it); the
 * interface does not show it. The client sends it on every POST, the sandbox honours it.
 */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Set on an answer a service replays for an Idempotency-Key it has seen. */
export const IDEMPOTENT_REPLAYED_HEADER = 'idempotent-replayed';
/**
 * The id a service gives a request, quoted in errors so its logs can be searched (the
 * interface does not show one; the sandbox sets it, and the client reads it when present).
 */
export const REQUEST_ID_HEADER = 'x-request-id';
/** How long to wait before asking again, on a 429 or 503 (HTTP's own; the interface is silent). */
export const RETRY_AFTER_HEADER = 'retry-after';
/** The header the interface takes the API key in, as `Bearer <API_KEY>`. */
export const AUTHORIZATION_HEADER = 'authorization';

/**
 * How long a service keeps an Idempotency-Key and its answer (the interface does not say;
 * Stripe keeps them 24 hours, and so does the sandbox). A key first sent longer ago than the
 * window, less the margin (for clocks that differ and runs that take long), may have been
 * forgotten: sending it again may create the record a second time. `--key-window` (env
 * PETSTORE_KEY_WINDOW) sets it for a service that keeps them longer or shorter.
 */
export const IDEMPOTENCY_KEY_WINDOW = {
  defaultMs: 24 * 60 * 60 * 1000,
  marginMs: 60 * 60 * 1000,
  maxMs: 366 * 24 * 60 * 60 * 1000,
} as const;

/**
 * How long the history of writes keeps an entry (PETSTORE_HISTORY_RETENTION): 90 days, as
 * long as a quarter's questions about what changed; at most ten years.
 */
export const HISTORY_RETENTION = {
  defaultMs: 90 * 86_400_000,
  maxMs: 3650 * 86_400_000,
} as const;

import { afterEach } from 'vitest';
import { createClient } from '../../src/api/create-client.js';
import type { Transport } from '../../src/api/http.js';
import { createContext, type Context } from '../../src/context/context.js';
import { resolveTarget } from '../../src/context/resolve-target.js';
import { resolveSettings, type RawGlobalOptions } from '../../src/context/settings.js';
import type { Env } from '../../src/core/io.js';
import { guardedIO } from '../../src/core/guarded-io.js';
import { SecretRedactor } from '../../src/core/redaction/index.js';
import { fakeIO, type FakeIO } from './fake-io.js';
import { freshHome } from './run-cli.js';

const open: Context[] = [];
afterEach(async () => {
  for (const ctx of open.splice(0)) await ctx.close();
});

export const VERB_BASE = 'https://petstore.test/v1';
export const VERB_KEY = 'sk_test_verb_context_key';

/**
 * The context a verb's run function is called with, made as main makes it but without the
 * command line, as the GitHub CLI tests `listRun(opts)` with `iostreams.Test()` and an HTTP
 * stub: fake streams (a terminal with `tty`), the global options as parsed, an environment
 * naming a service (PETSTORE_BASE_URL and a key unless `env` says otherwise), and every
 * request carried by `transport`. Closed after the test.
 */
export function verbContext(
  options: {
    transport?: Transport;
    raw?: RawGlobalOptions;
    env?: Env;
    tty?: boolean;
    stdin?: string;
    /** The terminal's width (with tty). */
    columns?: number;
  } = {},
): { ctx: Context; io: FakeIO } {
  const io = fakeIO({ tty: options.tty, stdin: options.stdin, columns: options.columns });
  const env: Env = {
    HOME: freshHome(),
    PETSTORE_BASE_URL: VERB_BASE,
    PETSTORE_API_KEY: VERB_KEY,
    ...options.env,
  };
  const redactor = new SecretRedactor();
  const guarded = guardedIO(io, redactor);
  const ctx = createContext({
    io: guarded,
    env,
    settings: resolveSettings(options.raw ?? {}, env, guarded),
    resolveTarget,
    createClient: (target, settings) => Promise.resolve(createClient(target, settings)),
    transport: options.transport,
    redactor,
  });
  open.push(ctx);
  return { ctx, io };
}

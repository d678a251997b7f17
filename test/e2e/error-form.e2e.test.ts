import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, freshHome } from '../helpers/run-cli.js';
import { shellQuote, TerminalSession } from '../helpers/terminal.js';

/**
 * stderr speaks to whoever reads it: the form of an error for every way stdout and stderr can
 * be connected (a terminal, a file, a pipe), every output format and --error-format. The
 * command fails the same way each time: a pet the embedded sandbox does not have (exit 4).
 */

const STDOUT = { terminal: '', file: '> "$OUT"', pipe: '| cat > "$OUT"' } as const;
const STDERR = { terminal: '', pipe: '2> >(cat > "$ERR")' } as const;
const OUTPUTS = ['table', 'json', 'ndjson'] as const;
const FORCED = [undefined, 'text', 'json'] as const;

type Case = [
  keyof typeof STDOUT,
  keyof typeof STDERR,
  (typeof OUTPUTS)[number],
  (typeof FORCED)[number],
];
const cases: Case[] = [];
for (const out of Object.keys(STDOUT) as (keyof typeof STDOUT)[]) {
  for (const err of Object.keys(STDERR) as (keyof typeof STDERR)[]) {
    for (const output of OUTPUTS)
      for (const forced of FORCED) cases.push([out, err, output, forced]);
  }
}

/** JSON when asked, or when stderr is no terminal and the data is JSON; else text. */
function expected(err: keyof typeof STDERR, output: string, forced: string | undefined) {
  if (forced !== undefined) return forced;
  return err === 'pipe' && output !== 'table' ? 'json' : 'text';
}

describe('the form of an error on stderr', () => {
  it('follows one rule for stdout {terminal, file, pipe} × stderr {terminal, pipe} × -o × --error-format', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'petstore-error-form-'));
    // Every case in one terminal session, one line of results each.
    const lines = cases.map(([out, err, output, forced], i) => {
      const args = [
        '-o',
        output,
        ...(forced ? ['--error-format', forced] : []),
        'pets',
        'get',
        '999999',
      ];
      const run = [process.execPath, BIN, ...args].map(shellQuote).join(' ');
      const files = `OUT=${folder}/out${i} ERR=${folder}/err${i}`;
      return `${files}; export OUT ERR; echo "<<case ${i}"; ${run} ${STDERR[err]} ${STDOUT[out]}; echo "exit ${i} $?>>"`;
    });
    const session = new TerminalSession(
      `bash -c ${shellQuote(['set -o pipefail', ...lines].join('\n'))}`,
      {
        PATH: process.env.PATH ?? '',
        HOME: freshHome(),
      },
      120_000,
    );
    try {
      await session.waitFor(`exit ${cases.length - 1} `, 110_000);
    } finally {
      session.kill();
      await session.closed;
    }
    const shown = session.output.replaceAll('\r', '');
    for (const [i, [out, err, output, forced]] of cases.entries()) {
      const label = `stdout ${out}, stderr ${err}, -o ${output}, --error-format ${forced ?? '(none)'}`;
      const onTerminal = shown.slice(shown.indexOf(`<<case ${i}\n`), shown.indexOf(`exit ${i} `));
      expect(shown, label).toContain(`exit ${i} 4>>`);
      const stderr =
        err === 'terminal' ? onTerminal : readFileSync(join(folder, `err${i}`), 'utf8');
      const form = expected(err, output, forced);
      if (form === 'json') {
        expect(stderr, label).toMatch(/\{"code":"pet_not_found","message":"[^"]+","status":404/);
        expect(stderr, label).not.toMatch(/^petstore: /m);
      } else {
        expect(stderr, label).toMatch(/^petstore: .*\(pet_not_found, HTTP 404[,)]/m);
        expect(stderr, label).not.toContain('{"code"');
      }
    }
  }, 150_000);
});

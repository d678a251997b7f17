import { flagOf } from '../../output/wording.js';
import { stringifyJson } from '../../core/json.js';
import type { Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import { wholeNumberFlag } from '../../cmdutil/flags.js';
import type { FlagsOf, RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import {
  InterruptedError,
  type NetworkError,
  SmokeFailedError,
  SmokeKeyRefusedError,
  UsageError,
} from '../../core/errors.js';
import { unknownApiKey } from '../../core/api-key.js';
import { writeReportFile } from '../../core/report-file.js';
import { StopController } from '../../core/stop.js';
import type { Pet } from '../../core/interface.js';
import { renderJUnit, type JUnitCase } from '../../output/junit.js';
import type { Column } from '../../output/render.js';
import {
  parseInterval,
  roundFields,
  roundLine,
  summarize,
  type CheckResult,
  type CheckSummary,
} from '../../operations/smoke/canary.js';
import { INTERRUPTED, runSmokeRounds, type SmokeRunOptions } from '../../operations/smoke/run.js';

export interface SmokeOptions extends SmokeRunOptions {
  junitFile: string | undefined;
}

/** `smoke`'s flags, declared once (name, help, parser). */
function declareSmoke(program: Command) {
  return program
    .command('smoke')
    .description('Check that a deployment answers as the interface says (exit 8 on failure)')
    .option('--allow-writes', 'also run the checks that add a pet and send a message')
    .option('--junit <file>', 'write the results as a JUnit XML report', (text: string) => {
      if (text.trim() !== '') return text;
      throw new UsageError('--junit needs a file name', { hint: 'e.g. --junit smoke.xml' });
    })
    .option(
      '--max-latency <ms>',
      'fail a check that takes longer than this',
      wholeNumberFlag('--max-latency', { min: 1, max: 3_600_000 }),
    )
    .option(
      '--repeat <n>',
      'a canary: run the checks n times, then print a summary',
      wholeNumberFlag('--repeat', { min: 1, max: 1_000_000 }),
    )
    .option(
      '--every <duration>',
      'a canary: pause between rounds (e.g. 10s); alone, until Ctrl-C',
      everyFlag,
    )
    .addHelpText('after', SMOKE_HELP);
}

/** --every: a pause between rounds. */
function everyFlag(text: string): number {
  const ms = parseInterval(text);
  if (ms === undefined) {
    throw new UsageError(`--every must be a duration such as 500ms, 10s or 5m, got "${text}"`);
  }
  return ms;
}

export function toSmokeOptions(flags: FlagsOf<ReturnType<typeof declareSmoke>>): SmokeOptions {
  return {
    allowWrites: flags.allowWrites === true,
    junitFile: flags.junit,
    maxLatencyMs: flags.maxLatency,
    repeat: flags.repeat,
    everyMs: flags.every,
  };
}

interface SmokeRow extends CheckResult {
  /** What was checked: "profile staging", or the URL given with --base-url. */
  target: string;
  baseUrl: string | null;
}

const tone = (outcome: string) =>
  outcome === 'pass' ? 'good' : outcome === 'fail' ? 'warn' : ('muted' as const);

const RESULT_COLUMNS: Column<SmokeRow>[] = [
  { header: 'result', value: (row) => row.outcome, tone: (row) => tone(row.outcome) },
  { header: 'check', value: (row) => row.name },
  { header: 'ms', value: (row) => row.durationMs },
  // What failed, whole: wrapped to a narrow terminal, never cut.
  { header: 'detail', value: (row) => row.detail, wrap: true },
];

const SUMMARY_COLUMNS: Column<CheckSummary>[] = [
  { header: 'check', value: (row) => row.name },
  { header: 'runs', value: (row) => row.runs },
  {
    header: 'pass rate',
    value: (row) => (row.passRate === null ? '-' : `${row.passRate}%`),
    tone: (row) => (row.failed > 0 ? 'warn' : row.passRate === null ? 'muted' : 'good'),
  },
  { header: 'p50 ms', value: (row) => row.p50Ms },
  { header: 'p95 ms', value: (row) => row.p95Ms },
  { header: 'max ms', value: (row) => row.maxMs },
  { header: 'last failure', value: (row) => row.lastFailure, placeholder: '-', wrap: true },
];

/** JUnit knows pass, fail and skip: info passes (the interface asks nothing there). */
function junitCases(rounds: CheckResult[][], canary: boolean): JUnitCase[] {
  if (!canary) {
    return rounds[0]!.map((r) => ({ ...r, outcome: r.outcome === 'info' ? 'pass' : r.outcome }));
  }
  return summarize(rounds).map((row) => ({
    name: row.name,
    outcome: row.failed > 0 ? 'fail' : row.passed + row.info > 0 ? 'pass' : 'skip',
    durationMs: row.maxMs,
    detail:
      row.failed > 0
        ? `failed ${row.failed} of ${row.runs} rounds; last: ${row.lastFailure}`
        : `${row.runs} rounds, p50 ${row.p50Ms} ms, p95 ${row.p95Ms} ms`,
  }));
}

export async function runSmoke(
  ctx: RunOutput & RunServices & RunState,
  options: SmokeOptions,
): Promise<void> {
  const target = await ctx.target();
  // Deprecation notices are one of its checks' results, not warnings of the run.
  const quiet = { warnDeprecations: false };
  const client = await ctx.clientFor(target, {}, quiet);
  const unauthenticated = await ctx.clientFor({ ...target, apiKey: unknownApiKey() }, {}, quiet);
  const canary = options.repeat !== undefined || options.everyMs !== undefined;
  const rounds = options.repeat ?? (options.everyMs !== undefined ? Infinity : 1);
  let interrupt: () => void = () => undefined;
  const interrupted = new Promise<'interrupted'>((resolve) => {
    interrupt = () => resolve('interrupted');
  });
  const stop = new StopController(ctx.io, {
    onFirst: (signal) => {
      ctx.io.stderr.write(
        `petstore: ${signal}: stopping now (a write in flight is waited for); the summary follows (send it again to stop at once)\n`,
      );
      interrupt();
    },
    onSecond: (signal) =>
      new InterruptedError(`stopped at once on a second ${signal}`, { signal, immediate: true }),
  });
  try {
    const outcome = await runSmokeRounds(
      { client, unauthenticated, target, stop, interrupted },
      options,
      (round, done) => {
        if (canary) {
          const of = Number.isFinite(rounds) ? rounds : undefined;
          if (!ctx.settings.errorsAsJson) ctx.notice(roundLine(round, done, of));
          else if (!ctx.settings.quiet) {
            ctx.io.stderr.write(`${stringifyJson({ round: roundFields(round, done, of) })}\n`);
          }
        }
      },
    );
    await report(ctx, options, { ...outcome, canary, signal: stop.signal });
  } finally {
    stop.dispose();
  }
}

async function report(
  ctx: RunOutput & RunServices & RunState,
  options: SmokeOptions,
  run: {
    results: CheckResult[][];
    canary: boolean;
    created: Pet[];
    signal: 'SIGINT' | 'SIGTERM' | undefined;
    /** The service answered 401 to the run's own key. */
    keyRefused: boolean;
    /** The service could not be reached: the run ends with that error (exit 7). */
    unreachable: NetworkError | undefined;
  },
): Promise<void> {
  const target = await ctx.target();
  const { canary, created, signal } = run;
  // A check skipped for want of a flag says which.
  const results = run.results.map((round) =>
    round.map(({ needs, ...result }) =>
      needs === undefined
        ? result
        : { ...result, detail: `${result.detail}: run with ${flagOf(needs)}` },
    ),
  );
  if (canary) await ctx.render(summarize(results), SUMMARY_COLUMNS);
  else {
    const rows = (results[0] ?? []).map((r) => ({
      target: target.label,
      baseUrl: target.baseUrl ?? null,
      ...r,
    }));
    await ctx.render(rows, RESULT_COLUMNS);
  }
  const all = results.flat();
  // A run cut short that was asked to end by itself (a one-shot, --repeat N): never a pass.
  // (--every alone runs until stopped: a signal is how it ends, and its worst outcome decides.)
  const endless = options.everyMs !== undefined && options.repeat === undefined;
  const unrun = all.filter((r) => r.detail === INTERRUPTED).length;
  const cutShort = signal !== undefined && !endless;
  const interruption = `smoke interrupted by ${signal}: ${unrun} check(s) not run`;
  if (options.junitFile && results.length > 0) {
    const cases = junitCases(results, canary);
    // CI reading the report alone must see the run did not finish.
    if (cutShort)
      cases.push({ name: 'smoke run', outcome: 'fail', durationMs: 0, detail: interruption });
    const xml = renderJUnit(`petstore smoke (${target.label})`, cases, new Date());
    // A service may echo the key in a detail; the report is text that leaves this machine too.
    await writeReportFile(options.junitFile, ctx.redact(xml), 'JUnit report');
  }
  const count = (outcome: string) => all.filter((r) => r.outcome === outcome).length;
  const failed = count('fail');
  const rounds = canary ? ` over ${results.length} round(s)` : '';
  const summary = `${count('pass')} passed, ${failed} failed, ${count('skip')} skipped, ${count('info')} info${rounds} against ${target.label}`;
  if (created.length > 0) {
    const ids = created.map((pet) => pet.id.toString());
    const shown =
      ids.length > 20
        ? `${ids.slice(0, 20).join(', ')} and ${ids.length - 20} more`
        : ids.join(', ');
    ctx.notice(`The smoke run added pet(s) ${shown}.`);
  }
  if (run.unreachable !== undefined) {
    // One error, the network's (exit 7), not a failed check for each of them.
    ctx.notice(`smoke: ${summary}`);
    throw run.unreachable;
  }
  if (cutShort && failed === 0) {
    ctx.notice(`smoke: ${summary}`);
    throw new InterruptedError(interruption, { signal });
  }
  if (failed > 0 && run.keyRefused) {
    throw new SmokeKeyRefusedError(
      `smoke: the service refused the API key of ${target.label} (401), so the checks could not judge it: ${summary}`,
      {
        hint: 'Check the API key: petstore auth status (PETSTORE_API_KEY overrides the stored one).',
      },
    );
  }
  if (failed > 0) throw new SmokeFailedError(`smoke: ${summary}`);
  ctx.notice(`smoke: ${summary}`);
}

const SMOKE_HELP = helpProse(`
Every answer is checked against the interface: required fields and their types, int64 ids
kept exact, enumerations, Error bodies (code, message, status equal to the HTTP status), and
the JSON content type. Without --allow-writes only reads are made (and one request with an
invalid key). What the interface leaves open (a limit of 0 or 101, an unknown status) is
reported as info, never as a failure.

With --repeat or --every, one line per round goes to stderr, and the summary (pass rate and
p50, p95 and max latency per check) to stdout; Ctrl-C ends the run with the summary, and the
exit code is the worst outcome (8 if any check failed).

Examples:
  $ petstore --profile staging smoke
  $ petstore --profile staging smoke --allow-writes --junit smoke.xml
  $ petstore --profile staging smoke --repeat 20 --max-latency 500
  $ petstore --profile staging smoke --every 30s`);

export function registerSmoke(program: Command, runVerb: RunVerb): void {
  const smoke = declareSmoke(program);
  smoke.action((flags) => runVerb(smoke, () => toSmokeOptions(flags), runSmoke));
}

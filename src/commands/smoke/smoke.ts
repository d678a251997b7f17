import { rename, writeFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { Context } from '../../context/context.js';
import { PetstoreError, SmokeFailedError, UsageError } from '../../core/errors.js';
import { renderJUnit, type JUnitCase } from '../../output/junit.js';
import type { Column } from '../../output/render.js';
import { SMOKE_CHECKS, type SmokeEnvironment } from './checks.js';

export interface SmokeOptions {
  allowWrites: boolean;
  junitFile: string | undefined;
}

interface SmokeResult extends JUnitCase {
  /** What was checked: "profile staging", or the URL given with --base-url. */
  target: string;
  baseUrl: string | null;
}

const RESULT_COLUMNS: Column<SmokeResult>[] = [
  {
    header: 'result',
    value: (result) => result.outcome,
    tone: (result) =>
      result.outcome === 'pass' ? 'good' : result.outcome === 'fail' ? 'warn' : 'muted',
  },
  { header: 'check', value: (result) => result.name },
  { header: 'ms', value: (result) => result.durationMs },
  { header: 'detail', value: (result) => result.detail },
];

/** A key no service can know, to see that the service refuses it. */
const INVALID_KEY = 'petstore-smoke-invalid-key';

export async function runSmoke(ctx: Context, options: SmokeOptions): Promise<void> {
  const target = await ctx.target();
  const env: SmokeEnvironment = {
    client: await ctx.client(),
    unauthenticated: await ctx.clientFor({ ...target, apiKey: INVALID_KEY }),
    target,
    created: [],
  };
  const results: SmokeResult[] = [];
  for (const check of SMOKE_CHECKS) {
    const started = performance.now();
    let outcome: SmokeResult['outcome'] = 'pass';
    let detail: string;
    if (check.writes && !options.allowWrites) {
      outcome = 'skip';
      detail = 'writes to the service: run with --allow-writes';
    } else {
      try {
        detail = await check.run(env);
        if (detail.startsWith('skip: ')) {
          outcome = 'skip';
          detail = detail.slice('skip: '.length);
        }
      } catch (error) {
        outcome = 'fail';
        detail = error instanceof Error ? error.message : String(error);
        if (error instanceof PetstoreError && error.status) detail += ` (HTTP ${error.status})`;
      }
    }
    const durationMs = Math.round(performance.now() - started);
    results.push({
      target: target.label,
      baseUrl: target.baseUrl ?? null,
      name: check.name,
      outcome,
      durationMs,
      detail,
    });
  }
  await ctx.render(results, RESULT_COLUMNS);
  if (options.junitFile) {
    const report = renderJUnit(`petstore smoke (${target.label})`, results, new Date());
    // A service may echo the key in a detail; the report is text that leaves this machine too.
    await writeReport(options.junitFile, ctx.redact(report));
  }

  const failed = results.filter((result) => result.outcome === 'fail').length;
  const passed = results.filter((result) => result.outcome === 'pass').length;
  const summary = `${passed} passed, ${failed} failed, ${results.length - passed - failed} skipped against ${target.label}`;
  if (env.created.length > 0) {
    ctx.notice(
      `The smoke run added pet(s) ${env.created.map((pet) => pet.id.toString()).join(', ')}.`,
    );
  }
  if (failed > 0) throw new SmokeFailedError(`smoke: ${summary}`);
  ctx.notice(`smoke: ${summary}`);
}

/** Written next to its destination and renamed, so a reader never sees half a report. */
async function writeReport(path: string, report: string): Promise<void> {
  const temporary = `${path}.${process.pid}.tmp`;
  try {
    await writeFile(temporary, report);
    await rename(temporary, path);
  } catch (error) {
    throw new UsageError(
      `cannot write the JUnit report ${path}: ${(error as NodeJS.ErrnoException).code ?? String(error)}`,
    );
  }
}

export function registerSmoke(program: Command, runVerb: RunVerb): void {
  program
    .command('smoke')
    .description('Check that a deployment answers as the interface says (exit 8 on failure)')
    .option('--allow-writes', 'also run the checks that add a pet and send a message')
    .option('--junit <file>', 'write the results as a JUnit XML report')
    .addHelpText(
      'after',
      `
Without --allow-writes only reads are made (and one request with an invalid key).

Examples:
  $ petstore --profile staging smoke
  $ petstore --profile staging smoke --allow-writes --junit smoke.xml`,
    )
    .action((flags: { allowWrites?: boolean; junit?: string }, command: Command) =>
      runVerb(
        command,
        () => ({ allowWrites: flags.allowWrites === true, junitFile: flags.junit }),
        runSmoke,
      ),
    );
}

import type { Command } from '@commander-js/extra-typings';
import { helpProse } from '../../cmdutil/help-text.js';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { DiagnosisFailedError } from '../../core/errors.js';
import type { Column } from '../../output/render.js';
import type { Finding } from './finding.js';
import { localChecks } from './local-checks.js';
import { networkChecks } from './network-checks.js';

const COLUMNS: Column<Finding>[] = [
  {
    header: 'status',
    value: (finding) => finding.status,
    tone: (finding) =>
      finding.status === 'ok' ? 'good' : finding.status === 'info' ? 'muted' : 'warn',
  },
  { header: 'check', value: (finding) => finding.check },
  // On a narrow terminal both wrap: a person needs all of the fix, and of what was found.
  { header: 'detail', value: (finding) => finding.detail, wrap: true },
  { header: 'fix', value: (finding) => finding.fix, wrap: true },
];

/**
 * Everything between the user and a working call, in one report: what is fine, what is worth
 * a look, what fails and how to fix it. Nothing is written; one read is sent.
 */
export async function runDoctor(ctx: RunOutput & RunServices): Promise<void> {
  const { findings, facts } = await localChecks(ctx);
  const blocked = findings.some((finding) => finding.status === 'fail');
  if (!blocked) findings.push(...(await networkChecks(ctx, facts)));
  else if (facts.profile !== undefined) {
    // The local failures say what to fix first; the network is still worth a look.
    findings.push(
      ...(await networkChecks(ctx, facts)).filter(
        (finding) => finding.check !== 'key accepted' && finding.check !== 'HTTP',
      ),
    );
  }
  await ctx.render(findings, COLUMNS);
  const failures = findings.filter((finding) => finding.status === 'fail');
  const first = failures[0];
  if (first) {
    throw new DiagnosisFailedError(
      `${failures.length} check(s) failed, first: ${first.check}: ${first.detail}`,
      first.exitCode ?? 1,
      first.fix,
    );
  }
}

export function registerDoctor(program: Command, runVerb: RunVerb): void {
  program
    .command('doctor')
    .description('Check everything between you and a working call, and say how to fix it')
    .addHelpText(
      'after',
      helpProse(`
Examples:
  $ petstore doctor
  $ petstore --profile staging doctor --json

Each line is ok, info, warn or fail: Node.js, the config file and its permissions, which
profile is used and why, where its key is (and whether the OS keyring answers), the proxies
in effect, then DNS, TCP and TLS (certificate subject, issuer, days left, host name) for the
base and quickstart URLs, one read with the key, the clock against the service's, and
deprecations. Exit 0 when nothing fails, else the exit code of the first failure's kind.`),
    )
    .action((_flags: unknown, command: Command) => runVerb(command, () => ({}), runDoctor));
}

import type { Reporter, TestModule } from 'vitest/node';

/** Ends the run with one plain line, "N passed, N failed, N skipped", that any CI can read. */
export default class PlainSummaryReporter implements Reporter {
  onTestRunEnd(testModules: readonly TestModule[]): void {
    const count = (state: 'passed' | 'failed' | 'skipped') =>
      testModules.reduce((sum, module) => sum + [...module.children.allTests(state)].length, 0);
    process.stdout.write(
      `${count('passed')} passed, ${count('failed')} failed, ${count('skipped')} skipped\n`,
    );
  }
}

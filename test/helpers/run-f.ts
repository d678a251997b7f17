import { main } from '../../src/main.js';
import { fakeIO } from './fake-io.js';
import { freshHome } from './run-cli.js';

/**
 * A command line as its verb would receive it, as the GitHub CLI's tests use `runF`: the verb
 * is not run; its path and the typed options commander and the flag parsers made are returned,
 * with the exit code and stderr (a refused line never reaches the verb).
 */
export async function runF(argv: string[], env: Record<string, string> = { HOME: freshHome() }) {
  const received: { verb: string; options: unknown }[] = [];
  const io = fakeIO();
  const code = await main(argv, io, env, {
    runF: (verb, options) => {
      received.push({ verb, options });
    },
  });
  return { code, received, err: io.err() };
}

/** The options a command line runs its verb with; fails the test when it is refused. */
export async function optionsOf(argv: string[]): Promise<unknown> {
  const { code, received, err } = await runF(argv);
  if (code !== 0 || received.length !== 1) {
    throw new Error(`${argv.join(' ')} was refused (exit ${code}): ${err}`);
  }
  return received[0]!.options;
}

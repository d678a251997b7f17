import type { RunOutput } from '../context/context.js';
import { UsageError } from '../core/errors.js';

/**
 * Whether the person agrees to what is about to be done (`question`), asked only where a
 * question may be asked at all (see Settings.prompts: a terminal, and no --no-input,
 * PETSTORE_NO_INPUT or CI); elsewhere a usage error naming the flag that says yes. Ctrl-C or
 * Ctrl-D at the question ends the run with 130, `undone` said.
 */
export async function confirmed(
  ctx: RunOutput,
  question: string,
  refusal: { message: string; yesFlag: string; undone: string },
): Promise<boolean> {
  if (!ctx.settings.prompts) {
    throw new UsageError(refusal.message, {
      hint: `Pass ${refusal.yesFlag} to go ahead without being asked.`,
    });
  }
  const { askYesNo } = await import('../output/ask.js');
  return askYesNo(ctx.io, question, refusal.undone);
}

import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import type { RunOutput, RunServices, RunState } from '../../context/context.js';
import { declarePetsImport, toPetsImportOptions, type PetsImportOptions } from './import-flags.js';

export { toPetsImportOptions, type PetsImportOptions } from './import-flags.js';

/** `pets import`: a batch from a file, each record created once, or a template to start one. */
export async function runPetsImport(
  ctx: RunOutput & RunServices & RunState,
  options: PetsImportOptions,
): Promise<void> {
  if ('template' in options) {
    const { petTemplate } = await import('../../bulk/template.js');
    ctx.io.stdout.write(petTemplate(options.template));
    return;
  }
  // The bulk engine is loaded only by a bulk run, not by building the program.
  const { runPetsImportFile } = await import('./import-file.js');
  await runPetsImportFile(ctx, options);
}

export function registerPetsImport(pets: Command, runVerb: RunVerb): void {
  const imports = declarePetsImport(pets);
  imports.action((file, flags) =>
    runVerb(imports, (env) => toPetsImportOptions(file, flags, env), runPetsImport),
  );
}

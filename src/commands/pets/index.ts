import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { addVerbs } from '../../cmdutil/verbs.js';
import { registerPetsAdd } from './add.js';
import { registerPetsGet } from './get.js';
import { registerPetsImport } from './import.js';
import { registerPetsList } from './list.js';

/** `petstore pets`: groups its verbs, nothing more. */
export function registerPets(program: Command, runVerb: RunVerb, verb?: string): void {
  const pets = program.command('pets').description('List, add and look up animals');
  addVerbs(
    pets,
    runVerb,
    {
      list: registerPetsList,
      add: registerPetsAdd,
      import: registerPetsImport,
      get: registerPetsGet,
    },
    verb,
  );
}

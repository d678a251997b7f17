import type { Command } from '@commander-js/extra-typings';
import type { RunVerb } from '../../cmdutil/run-verb.js';
import { registerPetsAdd } from './add.js';
import { registerPetsGet } from './get.js';
import { registerPetsList } from './list.js';

/** `petstore pets`: groups its verbs, nothing more. */
export function registerPets(program: Command, runVerb: RunVerb): void {
  const pets = program.command('pets').description('List, add and look up animals');
  registerPetsList(pets, runVerb);
  registerPetsAdd(pets, runVerb);
  registerPetsGet(pets, runVerb);
}

import type { Command } from 'commander';
import { registerPetsAdd } from './pets-add.js';
import { registerPetsGet } from './pets-get.js';
import { registerPetsList } from './pets-list.js';
import type { RunVerb } from './program.js';

export function registerPets(program: Command, runVerb: RunVerb): void {
  const pets = program.command('pets').description('List, add and look up animals');
  registerPetsList(pets, runVerb);
  registerPetsAdd(pets, runVerb);
  registerPetsGet(pets, runVerb);
}

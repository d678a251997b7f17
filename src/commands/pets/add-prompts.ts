import type { RunOutput } from '../../context/context.js';
import { UsageError } from '../../core/errors.js';
import { parseInt64 } from '../../core/int64.js';
import { PET_STATUSES, type NewPet } from '../../core/interface.js';
import type { PetDraft } from './add-flags.js';

/**
 * The pet the flags describe; where they leave out its name or category, those are asked for
 * at a terminal (and then its status, from the interface's values or none), else refused.
 */
export async function completePet(ctx: RunOutput, draft: PetDraft): Promise<NewPet> {
  const { name, categoryId } = draft;
  if (name !== undefined && categoryId !== undefined) return { ...draft, name, categoryId };
  if (!ctx.settings.prompts) {
    throw new UsageError('pets add needs --name and --category-id', {
      hint: 'Example: petstore pets add --name Rex --category-id 1 (at a terminal, petstore asks for what is missing)',
    });
  }
  const { askChoice, askText } = await import('../../output/ask.js');
  const pet: NewPet = {
    name:
      name ??
      (await askText(ctx.io, {
        message: 'Name',
        check: (answer) => (answer.trim() === '' ? 'a name is needed' : undefined),
      })),
    categoryId:
      categoryId ??
      parseInt64(
        await askText(ctx.io, { message: 'Category id', check: int64Problem }),
        'the category id',
      ),
  };
  const status =
    draft.status ??
    (await askChoice(ctx.io, {
      message: 'Status',
      choices: [
        { name: '(none)', value: undefined },
        ...PET_STATUSES.map((value) => ({ name: value, value })),
      ],
    }));
  if (status !== undefined) pet.status = status;
  return pet;
}

/** What is wrong with a category id as typed, if anything (the interface's int64). */
function int64Problem(answer: string): string | undefined {
  try {
    parseInt64(answer, 'the category id');
    return undefined;
  } catch {
    return 'a whole number (int64)';
  }
}

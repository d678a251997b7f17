import { command, phrase } from '../../core/phrase.js';
import type { PetstoreClient } from '../../api/client.js';
import type { Int64 } from '../../core/int64.js';
import { GET_PET_REMOVAL_DATE, type Pet } from '../../core/interface.js';

/** What every front end says of the deprecated operation before it uses it. */
export const GET_PET_DEPRECATION = phrase`GET /pets/{petId} is deprecated and will be removed on ${GET_PET_REMOVAL_DATE}; use "${command('pets list', { status: 'STATUS' })}" instead.`;

/** One pet by its id (the deprecated `GET /pets/{petId}`). */
export async function getPet(
  deps: { client: Pick<PetstoreClient, 'getPet'> },
  id: Int64,
): Promise<Pet> {
  return deps.client.getPet(id);
}

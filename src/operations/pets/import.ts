import { join } from 'node:path';
import type { PetstoreClient, RequestPreview } from '../../api/client.js';
import {
  runImport,
  type DryRunOutcome,
  type ImportEvents,
  type ImportOutcome,
  type ImportPorts,
  type ImportRequest,
  type ImportTarget,
} from '../../bulk/import.js';
import { findJournal } from '../journal/find.js';

export type {
  DryRunOutcome,
  ImportEvents,
  ImportOutcome,
  ImportRequest,
  ImportTarget,
  RecordReport,
} from '../../bulk/import.js';

/** What an import uses: the service (reached once its input is checked) and the rest of the ports. */
export interface ImportDeps extends Omit<ImportPorts<RequestPreview>, 'connect'> {
  connect(): Promise<{
    client: Pick<PetstoreClient, 'createPet' | 'previewCreatePet' | 'listPetsPage' | 'traceId'>;
    target: ImportTarget;
  }>;
}

/** Where the locks of agents' batches are kept: the user's data folder. */
export const locksFolder = (dataDir: string) => join(dataDir, 'locks');

/**
 * `pets import` (and an agent's add_pets): pets from an input, each created exactly once, or a
 * journaled run completed (`resume`: a journal's path, or its batch id). The bulk engine runs
 * it (bulk/import.ts); this gives it the client, each write labelled for the history.
 */
export async function importPets(
  deps: ImportDeps,
  request: ImportRequest,
  events: ImportEvents<RequestPreview>,
): Promise<ImportOutcome | DryRunOutcome> {
  const resume =
    request.resume === undefined ? undefined : await findJournal(request.resume, deps.journalsDir);
  const ports: ImportPorts<RequestPreview> = {
    ...deps,
    connect: async () => {
      const { client, target } = await deps.connect();
      return {
        target,
        createPet: (pet, { batch, record, ...write }) =>
          client.createPet(pet, { ...write, label: { operation: 'pets import', batch, record } }),
        preview: (pet, idempotencyKey) => client.previewCreatePet(pet, { idempotencyKey }),
        serviceDate: async () => (await client.listPetsPage({ limit: 1 })).headers.date,
        traceId: client.traceId(),
      };
    },
  };
  return runImport(ports, { ...request, resume }, events);
}

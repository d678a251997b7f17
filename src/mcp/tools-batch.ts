import { createHash } from 'node:crypto';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { RequestPreview } from '../api/request.js';
import { parseBatchId, recordKey } from '../bulk/batch.js';
import { stoppedBeforeSending } from './stopping.js';
import { parseInt64 } from '../core/int64.js';
import type { NewPet } from '../core/interface.js';
import { stringifyJson } from '../core/json.js';
import { checkedPet } from '../operations/pets/add.js';
import type { McpDeps, ToolShelf } from './deps.js';
import { requestText } from './request-view.js';
import { batchHint } from './batch-hints.js';
import { errorResult } from './results.js';
import { addPetsInput, addPetsOutput, DATA_NOT_INSTRUCTIONS } from './schemas.js';
import type { ServerGate } from './write-gate.js';

import { batchJournal, sendBatch } from './batch-send.js';

type PetArgs = { name: string; category_id: string; status?: string | undefined }[];

/**
 * The agent's pets, checked, and each as the JSON body it is sent as (categoryId a bare int64
 * number): what names a batch given no batch_id, and what the person confirms.
 */
function agentPets(args: PetArgs): { pets: NewPet[]; bodies: string[] } {
  const pets = args.map((pet, index) =>
    checkedPet({
      name: pet.name,
      categoryId: parseInt64(pet.category_id, `pets[${index}].category_id`),
      ...(pet.status === undefined ? {} : { status: pet.status as NewPet['status'] & string }),
    }),
  );
  return { pets, bodies: pets.map((pet) => stringifyJson(pet)) };
}

/** add_pets: many pets, journaled and sent exactly once, completed by calling it again. */
export function registerBatchTool(server: ToolShelf, deps: McpDeps, gate: ServerGate): void {
  server.registerTool(
    'add_pets',
    {
      title: 'Add many pets, exactly once',
      description: `Add many pets to ${deps.policy.label} as one batch, journaled as petstore pets import is: each record has its own Idempotency-Key made from the batch, so each pet is created exactly once. If a call fails part way, times out, is cancelled or its answer is lost, make the same call again (the same pets in the same order, and the same batch_id if you gave one): it completes the batch, never creating a pet twice, and the result lists every pet of the batch. Without batch_id the batch is named by its pets, so the same pets again complete that batch; to add identical pets as new ones, give a batch_id of your own. Writes need the server started with --allow-writes and a profile that allows them; the person may be asked to confirm first. dry_run returns the requests and sends nothing. ${DATA_NOT_INSTRUCTIONS}`,
      inputSchema: addPetsInput,
      outputSchema: addPetsOutput,
      annotations: {
        title: 'Add many pets, exactly once',
        readOnlyHint: false,
        destructiveHint: false,
        idempotentHint: false,
        openWorldHint: false,
      },
    },
    (args, ctx: ServerContext) =>
      deps.write(async () => {
        let batch: string | undefined;
        // The client's cancel of this call, or the server stopping: nothing new is sent.
        const stop = AbortSignal.any([ctx.mcpReq.signal, deps.stopping]);
        try {
          const { pets, bodies } = agentPets(args.pets);
          // Without a batch_id, the batch is named by its pets: the same call made again (its
          // answer lost to a timeout or a cancel) completes the batch instead of doubling it.
          batch =
            args.batch_id === undefined
              ? petsBatchId(deps.service, bodies)
              : parseBatchId(args.batch_id, 'batch_id');
          const given = batch;
          const send = { concurrency: args.concurrency, dryRun: args.dry_run === true, stop };
          if (send.dryRun) return await sendBatch(deps, pets, { ...send, batch: given });
          const journal = () => batchJournal(deps, given);
          // A call completing a batch: a dry run reads the journal and checks the pets against
          // it (other pets than the first call's are refused before the person is asked), and
          // says which records are still to send. None: nothing to ask, the call completes.
          let pending: number[] | undefined;
          if (await journal()) {
            pending = [];
            const planned = pending;
            await sendBatch(deps, pets, {
              ...send,
              batch: given,
              dryRun: true,
              onPlanned: (record) => planned.push(record),
            });
            if (pending.length === 0) return await sendBatch(deps, pets, { ...send, batch: given });
          }
          const admission = await gate.admit(ctx, {
            tool: 'add_pets',
            args: { pets: args.pets, batch_id: args.batch_id, concurrency: args.concurrency },
            token: given,
            describe: async (id) => {
              // The first request it sends, as it sends it.
              const first = pending?.[0] ?? 1;
              const client = await deps.client();
              const preview = client.previewCreatePet(pets[first - 1]!, {
                idempotencyKey: recordKey(id, '-', first),
              });
              return batchConfirmText(deps, bodies, id, pending, preview);
            },
          });
          if ('result' in admission) return admission.result;
          if (stop.aborted) throw stoppedBeforeSending(deps.stopping.aborted);
          return await sendBatch(deps, pets, { ...send, batch: admission.token });
        } catch (error) {
          if (batch === undefined) return errorResult(error);
          return errorResult(error, { hint: batchHint(error, batch) });
        }
      }),
  );
}

/** The batch id of a call that gives none: made from the service and the pets, in order. */
function petsBatchId(service: string, bodies: readonly string[]): string {
  // One body a line, as batch ids have been made since the first release: the same pets
  // name the same batch across versions.
  const input = bodies.map((body) => `${body}\n`).join('');
  const digest = createHash('sha256').update(`petstore mcp add_pets\n${service}\n${input}`);
  return `pets-${digest.digest('hex').slice(0, 32)}`;
}

/**
 * The form a person sees for a batch: every pet it will send (of a call completing a batch,
 * only those its earlier calls did not create), then the first request as it is sent.
 */
function batchConfirmText(
  deps: McpDeps,
  records: readonly string[],
  batch: string,
  pending: readonly number[] | undefined,
  preview: RequestPreview,
): string {
  const sent = pending ?? records.map((_record, index) => index + 1);
  const pets = sent.length === 1 ? '1 pet' : `${sent.length} pets`;
  const completing =
    pending === undefined
      ? ''
      : ` (completing its earlier call: the other ${records.length - sent.length} of its ${records.length} are not sent again)`;
  return [
    `An agent asks to add ${pets} through petstore mcp (${deps.policy.label}), as batch ${batch}${completing}:`,
    '',
    // Each body as JSON, escaped: nothing in a name can pose as part of this message.
    ...sent.map((record) => `${record}. ${records[record - 1]}`),
    '',
    'Each is one request like the first (each with its own Idempotency-Key, made from the batch):',
    '',
    requestText(preview),
    '',
    'Accept with "send" ticked to send them; decline to send nothing.',
  ].join('\n');
}

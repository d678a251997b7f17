import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { ServerContext } from '@modelcontextprotocol/server';
import type { RequestPreview } from '../api/request.js';
import { parseBatchId, recordKey } from '../bulk/batch.js';
import { JournalBusyError } from '../bulk/journal-file.js';
import { tryLock } from '../core/kernel-lock.js';
import { BULK_CONCURRENCY, IDEMPOTENCY_KEY_WINDOW } from '../core/contract.js';
import { CancelledError } from '../core/errors.js';
import { stoppedBeforeSending } from './stopping.js';
import { parseInt64 } from '../core/int64.js';
import type { NewPet, Pet } from '../core/interface.js';
import { stringifyJson } from '../core/json.js';
import { journalOfBatch } from '../operations/journal/find.js';
import { importPets, locksFolder, type ImportRequest } from '../operations/pets/import.js';
import { checkedPet } from '../operations/pets/add.js';
import { commandLineHint } from '../output/wording.js';
import { agentPet, agentValue, type AgentRecord } from './agent-data.js';
import type { McpDeps, ToolShelf } from './deps.js';
import { agentRequest, requestText } from './request-view.js';
import {
  BatchBusyError,
  batchHint,
  endHint,
  mayHaveBeenSent,
  REFUSED_HINT,
  resumeHint,
} from './batch-hints.js';
import { dataResult, errorRecord, errorResult } from './results.js';
import { addPetsInput, addPetsOutput, DATA_NOT_INSTRUCTIONS } from './schemas.js';
import type { ServerGate } from './write-gate.js';

/** The requests a dry run returns whole; the rest are counted. */
const DRY_RUN_SHOWN = 20;

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

/**
 * Calls of one batch, one after another in this process: a second call with a batch id waits
 * for the first, then reads its journal (two at once would each start a journal of their own).
 */
const batchQueue = new Map<string, Promise<unknown>>();
function oneAtATime<T>(batch: string, task: () => Promise<T>): Promise<T> {
  const before = batchQueue.get(batch) ?? Promise.resolve();
  const run = before.then(task, task);
  const settled = run.catch(() => undefined);
  batchQueue.set(batch, settled);
  void settled.then(() => {
    if (batchQueue.get(batch) === settled) batchQueue.delete(batch);
  });
  return run;
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
          // A batch completed with other pets than its first call's is refused before the
          // person is asked (a dry run reads the journal and checks the input against it).
          if (await journal()) await sendBatch(deps, pets, { ...send, batch: given, dryRun: true });
          const admission = await gate.admit(ctx, {
            tool: 'add_pets',
            args: { pets: args.pets, batch_id: args.batch_id, concurrency: args.concurrency },
            token: given,
            describe: async (id) => {
              const client = await deps.client();
              const preview = client.previewCreatePet(pets[0]!, {
                idempotencyKey: recordKey(id, '-', 1),
              });
              return batchConfirmText(deps, bodies, id, (await journal()) !== undefined, preview);
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

/** The form a person sees for a batch: every pet, then the first request as it is sent. */
function batchConfirmText(
  deps: McpDeps,
  records: readonly string[],
  batch: string,
  resumed: boolean,
  preview: RequestPreview,
): string {
  const pets = records.length === 1 ? '1 pet' : `${records.length} pets`;
  return [
    `An agent asks to add ${pets} through petstore mcp (${deps.policy.label}), as batch ${batch}${resumed ? ' (completing its earlier call: pets it created are not sent again)' : ''}:`,
    '',
    // Each body as JSON, escaped: nothing in a name can pose as part of this message.
    ...records.map((record, index) => `${index + 1}. ${record}`),
    '',
    'Each is one request like the first (each with its own Idempotency-Key, made from the batch):',
    '',
    requestText(preview),
    '',
    'Accept with "send" ticked to send them all; decline to send nothing.',
  ].join('\n');
}

async function sendBatch(
  deps: McpDeps,
  pets: readonly NewPet[],
  run: { batch: string; concurrency?: number | undefined; dryRun: boolean; stop: AbortSignal },
) {
  return oneAtATime(run.batch, async () => {
    const unlock = run.dryRun ? undefined : await lockBatch(deps, run.batch);
    try {
      // The batch's journal, if a call made one: this call completes it.
      const journal = await batchJournal(deps, run.batch);
      return await sendJournaled(deps, pets, { ...run, journal });
    } finally {
      await unlock?.();
    }
  }).catch(busyAsBatch(run.batch));
}

/** The batch's journal of this service, if a call made one. */
function batchJournal(deps: McpDeps, batch: string): Promise<string | undefined> {
  return journalOfBatch(batch, deps.journalsDir, { service: deps.service }).catch(
    busyAsBatch(batch),
  );
}

/**
 * A journal held by a run, met anywhere a call looks for or reads its batch's: the batch is
 * being sent. Its path is the person's to see (petstore journal list), not the agent's.
 */
function busyAsBatch(batch: string) {
  return (error: unknown): never => {
    if (error instanceof JournalBusyError) throw new BatchBusyError(batch);
    throw error;
  };
}

/**
 * The batch's lock across processes, held while a call finds or starts its journal and sends:
 * two servers completing one batch at once would each start a journal of their own. Held by
 * another: refused at once (BatchBusyError).
 */
async function lockBatch(deps: McpDeps, batch: string): Promise<() => Promise<void>> {
  const folder = locksFolder(deps.dataDir);
  await mkdir(folder, { recursive: true, mode: 0o700 });
  // Named by service and batch: a run of the same batch id against another service is
  // another batch, and neither waits for the other.
  const name = createHash('sha256').update(`${deps.service}\n${batch}`).digest('hex').slice(0, 32);
  const lock = await tryLock(join(folder, `mcp-batch-${name}`), { announce: false });
  if (!lock.taken) throw new BatchBusyError(batch);
  return lock.release;
}

async function sendJournaled(
  deps: McpDeps,
  pets: readonly NewPet[],
  run: {
    batch: string;
    journal: string | undefined;
    concurrency?: number | undefined;
    dryRun: boolean;
    stop: AbortSignal;
  },
) {
  const request: ImportRequest = {
    file: undefined,
    pets,
    resume: run.journal,
    journal: undefined,
    batchId: run.journal === undefined ? run.batch : undefined,
    concurrency: run.concurrency ?? BULK_CONCURRENCY.default,
    failFast: false,
    dryRun: run.dryRun,
    // A record whose outcome a cut-off call left unknown is sent again with its own key: the
    // service answers from the first send if it got it, so nothing is created twice.
    retryUnknown: true,
    retryFailed: false,
    printAll: true,
    keyWindow: {
      windowMs: IDEMPOTENCY_KEY_WINDOW.defaultMs,
      marginMs: IDEMPOTENCY_KEY_WINDOW.marginMs,
      ignore: false,
    },
  };
  const created: Pet[] = [];
  const notCreated: AgentRecord[] = [];
  const requests: AgentRecord[] = [];
  let requestCount = 0;
  let journaled = run.batch;
  const batchOf = () => journaled;
  const outcome = await importPets(
    {
      connect: async () => ({
        client: await deps.client(),
        target: { label: deps.policy.label, service: deps.service },
      }),
      journalsDir: deps.journalsDir,
      // The server handles the process's signals: one reaches a batch as `stop`.
      signals: { onSignal: () => () => undefined },
      cancel: run.stop,
      resumeCommand: (batch) => `add_pets with the same pets and batch_id ${batch}`,
    },
    request,
    {
      onJournal: ({ batch, toSend }) => {
        journaled = batch;
        deps.log(`add_pets: batch ${batch}, ${toSend} to send`);
      },
      rows: undefined,
      printTable: (pets) => {
        created.push(...pets);
        return Promise.resolve(true);
      },
      reportRecord: (error, record) =>
        notCreated.push({
          record: record.position,
          name: agentValue(record.name),
          // A record the service refused is not sent again by calling again.
          error: errorRecord(error, {
            hint: mayHaveBeenSent(error) ? resumeHint(batchOf()) : REFUSED_HINT,
          }),
        }),
      say: (line) => deps.log(line),
      onSettled: () => undefined,
      onAbandoned: () => undefined,
      onDryRun: (_record, preview) => {
        requestCount++;
        if (requests.length < DRY_RUN_SHOWN) requests.push(agentRequest(preview));
      },
      // The server's log is the person's: the command line's words.
      warn: (message) => deps.log(`warning: ${commandLineHint(message)}`),
      stdoutFailure: () => undefined,
    },
  );
  if (outcome.kind === 'dry run') {
    return dataResult({ batchId: outcome.batch, dryRun: true, requests, requestCount });
  }
  for (const { index, name, error } of outcome.earlier) {
    if (error === undefined) continue;
    notCreated.push({
      record: index + 1,
      name: agentValue(name),
      error: agentValue({ ...error, note: 'refused by the service in an earlier call' }),
    });
  }
  deps.log(`add_pets: ${outcome.summary}`);
  return dataResult(
    {
      batchId: outcome.batch,
      dryRun: false,
      created: created.map(agentPet),
      counts: { ...outcome.counts },
      notCreated,
      summary: agentValue(outcome.summary),
      // Why the batch did not end whole (cancelled, refused records, ...), and how to finish it.
      ...(outcome.error === undefined
        ? {}
        : {
            error: errorRecord(whyStopped(deps, outcome), {
              hint: endHint(outcome.batch, outcome.counts),
            }),
          }),
    },
    { isError: outcome.error !== undefined },
  );
}

/** A batch called off says by whom: the agent's cancel, or the server stopping (a signal). */
function whyStopped(deps: McpDeps, outcome: { error?: unknown; summary: string }): unknown {
  if (!(outcome.error instanceof CancelledError) || !deps.stopping.aborted) return outcome.error;
  return new CancelledError(`the server is stopping: ${outcome.summary}`);
}

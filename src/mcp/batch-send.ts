/**
 * Sending an add_pets batch: one call of a batch at a time in this process, the batch's lock
 * across processes, and the import that journals and sends it.
 */
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { JournalBusyError } from '../bulk/journal-file.js';
import { tryLock } from '../core/kernel-lock.js';
import { BULK_CONCURRENCY, IDEMPOTENCY_KEY_WINDOW } from '../core/contract.js';
import { CancelledError } from '../core/errors.js';
import type { NewPet, Pet } from '../core/interface.js';
import { journalOfBatch } from '../operations/journal/find.js';
import { importPets, locksFolder, type ImportRequest } from '../operations/pets/import.js';
import { commandLineHint } from '../output/wording.js';
import { agentPet, agentValue, type AgentRecord } from './agent-data.js';
import type { McpDeps } from './deps.js';
import { agentRequest } from './request-view.js';
import {
  BatchBusyError,
  endHint,
  mayHaveBeenSent,
  REFUSED_HINT,
  resumeHint,
} from './batch-hints.js';
import { dataResult, errorRecord } from './results.js';

/** The requests a dry run returns whole; the rest are counted. */
const DRY_RUN_SHOWN = 20;

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

export async function sendBatch(
  deps: McpDeps,
  pets: readonly NewPet[],
  run: {
    batch: string;
    concurrency?: number | undefined;
    dryRun: boolean;
    stop: AbortSignal;
    /** Of a dry run: told each record (from 1) a call would send. */
    onPlanned?: (record: number) => void;
  },
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
export function batchJournal(deps: McpDeps, batch: string): Promise<string | undefined> {
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
    onPlanned?: (record: number) => void;
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
      onDryRun: (record, preview) => {
        run.onPlanned?.(record);
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

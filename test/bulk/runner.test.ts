import { afterEach, describe, expect, it } from 'vitest';
import { PetstoreClient } from '../../src/api/client.js';
import type { HttpRequest, Transport } from '../../src/api/http.js';
import { UndiciTransport } from '../../src/api/transport.js';
import { concludeBulk } from '../../src/bulk/conclude.js';
import type { JournalEntry, JournalSink } from '../../src/bulk/journal-entries.js';
import { Ledger } from '../../src/bulk/ledger.js';
import type { BulkRecord } from '../../src/bulk/plan.js';
import type { RowOutput } from '../../src/bulk/printer.js';
import { recordDigest } from '../../src/bulk/records.js';
import { runBulk, type BulkPorts } from '../../src/bulk/runner.js';
import { stringifyJson } from '../../src/core/json.js';
import type { StopSignal } from '../../src/core/io.js';
import type { Pet } from '../../src/core/interface.js';
import { NetworkError } from '../../src/core/errors.js';
import { startSandboxServer, type RunningSandbox } from '../../src/sandbox/server.js';
import { waitUntil } from '../helpers/wait-until.js';

/**
 * The bulk runner through its ports: a journal that records what reached it and when it was
 * synced, rows that record what reached stdout, and the real client over the Transport seam
 * to the sandbox service (in this process, over real HTTP).
 */

const KEY = 'sk_runner_unit';
const open: { close: () => Promise<void> }[] = [];
afterEach(async () => {
  for (const resource of open.splice(0).reverse()) await resource.close();
});

/** A journal in memory: entries in order, each with whether it was synced before a request. */
class MemoryJournal implements JournalSink {
  readonly path = 'memory.journal';
  readonly entries: JournalEntry[] = [];
  private synced = 0;
  /** When set, every sync fails from then on (a full disk). */
  failSync: Error | undefined;

  append(entry: JournalEntry): number {
    this.entries.push(entry);
    return this.entries.length;
  }

  /** How many entries were written to the file (flushed); the rest are still in memory. */
  written = 0;

  flush(): void {
    this.written = this.entries.length;
  }

  /** Commits at the end of the turn, as the store does. */
  async committedThrough(sequence: number): Promise<void> {
    await new Promise((resolve) => setImmediate(resolve));
    this.written = Math.max(this.written, sequence);
  }

  async syncedThrough(sequence: number): Promise<void> {
    if (this.synced >= sequence) return;
    // A sync covers what was appended when it began, and takes a turn of the event loop.
    const upTo = this.entries.length;
    await new Promise((resolve) => setImmediate(resolve));
    if (this.failSync) throw this.failSync;
    this.synced = Math.max(this.synced, upTo);
  }

  /**
   * Whether the record sent with this key was journaled as the rule asks: `queued` with the
   * key synced to disk, and `sending` written to the file, before its request left.
   */
  journaledBeforeSend(key: string): boolean {
    const queued = this.entries.findIndex((entry) => entry.type === 'queued' && entry.key === key);
    if (queued === -1 || queued >= this.synced) return false;
    const { record } = this.entries[queued] as { record: number };
    const sending = this.entries.findIndex(
      (entry, at) => at > queued && entry.type === 'sending' && entry.record === record,
    );
    return sending !== -1 && sending < this.written;
  }

  of(type: JournalEntry['type']): number[] {
    return this.entries.flatMap((entry) =>
      entry.type === type && 'record' in entry ? [entry.record] : [],
    );
  }
}

/** Rows as a terminal-less stdout takes them, that can be made to take only `room` bytes. */
class MemoryRows implements RowOutput {
  readonly header = '';
  text = '';
  room = Infinity;
  line(pet: Pet): string {
    return stringifyJson(pet) + '\n';
  }
  write(text: string): Promise<number> {
    const bytes = Buffer.from(text);
    const written = Math.min(bytes.length, this.room);
    this.text += bytes.subarray(0, written).toString('utf8');
    this.room -= written;
    return Promise.resolve(written);
  }
  pets(): { id: number; name: string }[] {
    return this.text
      .split('\n')
      .slice(0, -1)
      .map((line) => JSON.parse(line) as { id: number; name: string });
  }
}

/** Signals a test delivers, as Ctrl-C would. */
function signals() {
  const listeners = new Set<(signal: StopSignal) => void>();
  return {
    onSignal: (listener: (signal: StopSignal) => void) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    send: (signal: StopSignal) => listeners.forEach((listener) => listener(signal)),
  };
}

async function service(): Promise<RunningSandbox> {
  const sandbox = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    database: ':memory:',
    apiKeys: [KEY],
  });
  open.push(sandbox);
  return sandbox;
}

/**
 * The client over a transport that sees each request as it leaves; with `dropFirstAnswer`, the
 * first answer to each key is lost after the service acted (a reset connection).
 */
function client(
  sandbox: RunningSandbox,
  onSend: (request: HttpRequest) => void,
  options: { dropFirstAnswer?: boolean } = {},
): PetstoreClient {
  const inner = new UndiciTransport(5);
  const answered = new Set<string>();
  const transport: Transport = {
    send: async (request) => {
      onSend(request);
      const response = await inner.send(request);
      const key = request.headers['idempotency-key'];
      if (options.dropFirstAnswer && key !== undefined && !answered.has(key)) {
        answered.add(key);
        throw new NetworkError('ECONNRESET', 'connection reset by the server');
      }
      return response;
    },
    close: () => inner.close(),
  };
  const created = new PetstoreClient({
    profile: 'test',
    baseUrl: sandbox.apiBaseUrl,
    apiKey: KEY,
    timeoutSeconds: 5,
    retries: 2,
    userAgent: 'petstore-cli/test',
    transport,
  });
  open.push({ close: () => transport.close() });
  open.push(created);
  return created;
}

/** The records of a new run of these pets, each with the key of its place. */
function setup(names: string[], batch = 'unit-batch', namedBatch = true) {
  const records: BulkRecord[] = names.map((name, index) => {
    const pet = { name, categoryId: 1 };
    const key = `key-${batch}-${index + 1}-1`;
    const digest = recordDigest(pet);
    return { index, pet, digest, key, maybeSentBefore: namedBatch, resendsUnknown: false };
  });
  return { plan: { records }, total: names.length };
}

function ports(
  api: PetstoreClient,
  journal: MemoryJournal,
  rows: MemoryRows,
  source = signals(),
): BulkPorts & { said: string[]; reported: unknown[] } {
  const said: string[] = [];
  const reported: unknown[] = [];
  return {
    createPet: (pet, write) => api.createPet(pet, write),
    journal,
    rows,
    signals: source,
    reportRecord: (error) => reported.push(error),
    say: (line) => said.push(line),
    said,
    reported,
  };
}

const options = (plan: ReturnType<typeof setup>['plan'], total: number, concurrency = 4) => ({
  ledger: new Ledger(total, plan.records.length),
  send: (async function* () {
    for (const record of plan.records) yield await Promise.resolve(record);
  })(),
  concurrency,
  failFast: false,
  resendUnknown: false,
  target: 'the sandbox',
  resumeCommand: 'petstore pets import --resume J',
});

describe('the bulk runner', () => {
  it('sends no record before its key is synced (queued) and its sending line written', async () => {
    const sandbox = await service();
    const journal = new MemoryJournal();
    const unsynced: string[] = [];
    const api = client(sandbox, (request) => {
      const key = request.headers['idempotency-key']!;
      if (!journal.journaledBeforeSend(key)) unsynced.push(key);
    });
    const { plan, total } = setup(Array.from({ length: 30 }, (_, i) => `pet-${i}`));
    const rows = new MemoryRows();
    const result = await runBulk(ports(api, journal, rows), options(plan, total, 8));
    expect(result.ledger.counts()).toMatchObject({ createdNow: 30, notAttempted: 0 });
    expect(unsynced).toEqual([]);
    expect(journal.of('sending')).toHaveLength(30);
    expect(journal.of('queued')).toHaveLength(30);
  });

  it('journals each pet created before its line reaches stdout, and printed after', async () => {
    const sandbox = await service();
    const journal = new MemoryJournal();
    const rows = new MemoryRows();
    const order: string[] = [];
    const write = rows.write.bind(rows);
    rows.write = (text) => {
      for (const pet of text.split('\n').filter(Boolean)) {
        const { id } = JSON.parse(pet) as { id: number };
        // Written to the journal (flushed), not only taken: a kill now would keep it.
        const created = journal.entries.some(
          (entry, at) =>
            entry.type === 'created' && Number(entry.pet.id) === id && at < journal.written,
        );
        order.push(created ? 'created, then printed' : 'printed before journaled');
      }
      return write(text);
    };
    const api = client(sandbox, () => undefined);
    const { plan, total } = setup(Array.from({ length: 20 }, (_, i) => `pet-${i}`));
    await runBulk(ports(api, journal, rows), options(plan, total, 4));
    expect(new Set(order)).toEqual(new Set(['created, then printed']));
    expect(journal.of('printed').sort((a, b) => a - b)).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
  });

  it('a line stdout took only part of is not journaled printed, nor any after it', async () => {
    const sandbox = await service();
    const journal = new MemoryJournal();
    const rows = new MemoryRows();
    rows.room = 150;
    const api = client(sandbox, () => undefined);
    const { plan, total } = setup(Array.from({ length: 12 }, (_, i) => `pet-${i}`));
    const result = await runBulk(ports(api, journal, rows), options(plan, total, 1));
    expect(result.reason).toBe('stdout closed');
    const whole = rows.pets();
    expect(rows.text.endsWith('\n')).toBe(false);
    // Printed: exactly the records whose whole line is on stdout.
    const printed = journal.of('printed');
    const byId = new Map(
      journal.entries.flatMap((entry) =>
        entry.type === 'created' ? [[Number(entry.pet.id), entry.record] as const] : [],
      ),
    );
    expect(printed.sort((a, b) => a - b)).toEqual(whole.map((pet) => byId.get(pet.id)));
    expect(whole.length).toBeLessThan(journal.of('created').length);
  });

  it('counts what the service answered from an earlier request apart from what it created', async () => {
    const sandbox = await service();
    const api = client(sandbox, () => undefined);
    const { plan, total } = setup(['A', 'B', 'C']);
    await runBulk(ports(api, new MemoryJournal(), new MemoryRows()), options(plan, total));
    // The same batch again: every key was seen.
    const again = setup(['A', 'B', 'C', 'D']);
    const journal = new MemoryJournal();
    const result = await runBulk(
      ports(api, journal, new MemoryRows()),
      options(again.plan, again.total),
    );
    expect(result.ledger.counts()).toMatchObject({ createdNow: 1, replayed: 3 });
    expect(
      journal.entries.filter((entry) => entry.type === 'created' && entry.replayed),
    ).toHaveLength(3);
    expect(result.ledger.summary('the sandbox')).toBe(
      '4 records to the sandbox: created 1 now, 3 answered from an earlier request (not created again)',
    );
  });

  it('counts as created now what its own unanswered send created, when no run before can have', async () => {
    const sandbox = await service();
    const api = client(sandbox, () => undefined, { dropFirstAnswer: true });
    const { plan, total } = setup(['A', 'B', 'C'], 'a-new-batch', false);
    const result = await runBulk(ports(api, new MemoryJournal(), new MemoryRows()), {
      ...options(plan, total),
      resendUnknown: true,
    });
    expect(result.ledger.counts()).toMatchObject({ createdNow: 3, replayed: 0 });
    // In a named batch, a run before may have sent the key: the service's record is earlier.
    const named = setup(['D'], 'named', true);
    const again = await runBulk(ports(api, new MemoryJournal(), new MemoryRows()), {
      ...options(named.plan, named.total),
      resendUnknown: true,
    });
    expect(again.ledger.counts()).toMatchObject({ createdNow: 0, replayed: 1 });
  });

  it('a journal that cannot be synced sends nothing more and ends the run with its error', async () => {
    const sandbox = await service();
    const journal = new MemoryJournal();
    journal.failSync = new Error('ENOSPC');
    let sent = 0;
    const api = client(sandbox, () => sent++);
    const { plan, total } = setup(['A', 'B', 'C']);
    const result = await runBulk(ports(api, journal, new MemoryRows()), options(plan, total));
    expect(sent).toBe(0);
    expect(result.fatal?.message).toContain('ENOSPC');
  });

  it('a first signal drains what is in flight; the rest are withdrawn, not unknown', async () => {
    const sandbox = await service();
    const journal = new MemoryJournal();
    const source = signals();
    let sent = 0;
    const api = client(sandbox, () => {
      if (++sent === 3) source.send('SIGINT');
    });
    const { plan, total } = setup(Array.from({ length: 40 }, (_, i) => `pet-${i}`));
    const bulkPorts = ports(api, journal, new MemoryRows(), source);
    const result = await runBulk(bulkPorts, options(plan, total, 2));
    expect(result.signal).toBe('SIGINT');
    expect(bulkPorts.said[0]).toContain('SIGINT: starting no more requests');
    const created = journal.of('created');
    expect(created.length).toBeGreaterThanOrEqual(3);
    expect(created.length).toBeLessThan(40);
    const queued = journal.of('queued');
    const withdrawn = journal.of('withdrawn');
    // Every record journaled as queued ended created or withdrawn: none left unknown.
    expect([...created, ...withdrawn].sort((a, b) => a - b)).toEqual(queued.sort((a, b) => a - b));
    expect(journal.of('sending').sort((a, b) => a - b)).toEqual(created.sort((a, b) => a - b));
    const { error } = concludeBulk(result, {
      target: 'the sandbox',
      resumeCommand: 'petstore pets import --resume J',
      journal: journal.path,
      stdoutFailure: undefined,
    });
    expect(error?.message).toMatch(
      /^SIGINT: 40 records to the sandbox: created \d+ now; \d+ not attempted$/,
    );
  });

  it('a second signal abandons what is in flight, naming it unknown', async () => {
    const sandbox = await service();
    const journal = new MemoryJournal();
    const source = signals();
    let sent = 0;
    const inner = client(sandbox, () => sent++);
    // Requests never answered once two are out: the second signal must not wait for them.
    let oneStuck: () => void = () => undefined;
    const stuckOut = new Promise<void>((resolve) => (oneStuck = resolve));
    const stuck: BulkPorts['createPet'] = (pet, write) => {
      if (sent < 2) return inner.createPet(pet, write);
      oneStuck();
      return new Promise<never>(() => undefined);
    };
    const bulkPorts = { ...ports(inner, journal, new MemoryRows(), source), createPet: stuck };
    const { plan, total } = setup(['A', 'B', 'C', 'D', 'E']);
    const running = runBulk(bulkPorts, options(plan, total, 2));
    await stuckOut;
    source.send('SIGINT');
    source.send('SIGINT');
    await expect(running).rejects.toThrow(/stopped at once on a second SIGINT: .*unknown \(record/);
  });

  it('an answer coming in after a second signal does not contradict what the run said', async () => {
    const sandbox = await service();
    const journal = new MemoryJournal();
    const rows = new MemoryRows();
    const source = signals();
    const inner = client(sandbox, () => undefined);
    // The request in flight is answered only after the run was stopped at once.
    let release: () => void = () => undefined;
    const late = new Promise<void>((resolve) => (release = resolve));
    let answered: Promise<unknown> | undefined;
    const slow: BulkPorts['createPet'] = (pet, write) => {
      const answer = late.then(() => inner.createPet(pet, write));
      answered = answer;
      return answer;
    };
    const bulkPorts = { ...ports(inner, journal, rows, source), createPet: slow };
    const { plan, total } = setup(['A']);
    const running = runBulk(bulkPorts, options(plan, total, 1));
    await waitUntil(() => answered !== undefined, 'the request to go out');
    source.send('SIGINT');
    source.send('SIGINT');
    await expect(running).rejects.toThrow(/unknown \(record 1\)/);
    release();
    // The answer has come, and whatever the run would do with it has had its turn.
    await answered;
    await new Promise((resolve) => setImmediate(resolve));
    // Record 1 stays as the run said: sent, outcome unknown; nothing journaled or printed after.
    expect(journal.of('created')).toEqual([]);
    expect(journal.of('sending')).toEqual([1]);
    expect(rows.text).toBe('');
  });
});

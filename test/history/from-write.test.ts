import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { WriteRecord } from '../../src/api/write-record.js';
import { entryFromWrite, SENT_KEPT_MOST } from '../../src/history/from-write.js';

function write(body: string, operation: string): WriteRecord {
  return {
    method: 'POST',
    url: 'http://127.0.0.1:1/v1/pets',
    idempotencyKey: 'k-1',
    outcome: 'answered',
    status: 400,
    replayed: false,
    attempts: 1,
    startedAt: '2026-12-07T00:00:00.000Z',
    durationMs: 3,
    requestId: undefined,
    resultId: undefined,
    body,
    label: { operation, batch: 'b', record: 1 },
  };
}

const source = { via: 'cli', client: undefined, profile: 'sandbox', service: 'x' } as const;

describe('what the history keeps of what was sent', () => {
  it.each([
    ['pets import', 10],
    ['pets add', SENT_KEPT_MOST - 50],
  ])('keeps a pet of %s whole up to the limit (%i characters of name)', (operation, size) => {
    const body = JSON.stringify({ name: 'n'.repeat(size), status: 'available' });
    expect(entryFromWrite(write(body, operation), source).sent).toBe(body);
  });

  it('keeps a larger pet as its size and digest, not its fields', () => {
    const body = JSON.stringify({ name: 'é'.repeat(SENT_KEPT_MOST), status: 'available' });
    const sent = JSON.parse(entryFromWrite(write(body, 'pets import'), source).sent!) as unknown;
    expect(sent).toEqual({
      bytes: Buffer.byteLength(body),
      sha256: createHash('sha256').update(body).digest('hex'),
    });
  });

  it('keeps only the size of any other body', () => {
    const body = JSON.stringify({ anything: 'x'.repeat(100) });
    expect(JSON.parse(entryFromWrite(write(body, 'api'), source).sent!)).toEqual({
      bytes: Buffer.byteLength(body),
    });
  });

  it.each([
    [201, 'created', 'created'],
    [400, 'refused', 'expected'],
    [400, undefined, 'failed'],
    [201, undefined, 'answered'],
  ] as const)(
    'a check (smoke) answered %i, sent to be %s, is recorded %s with what it sent',
    (status, expected, outcome) => {
      const body = JSON.stringify({ name: 'petstore-smoke', categoryId: 1 });
      const check = { ...write(body, 'smoke'), status, label: { operation: 'smoke', expected } };
      const recorded = entryFromWrite(check, source);
      expect(recorded.outcome).toBe(outcome);
      const kept = expected === undefined ? JSON.stringify({ bytes: body.length }) : body;
      expect(recorded.sent).toBe(kept);
    },
  );
});

describe("smoke's quickstart message", () => {
  it('is recorded as a message is: queued, its length only', () => {
    const body = JSON.stringify({ message: 'petstore smoke check' });
    const check = {
      ...write(body, 'smoke'),
      status: 202,
      label: { operation: 'smoke', expected: 'queued' as const, length: 20 },
    };
    const recorded = entryFromWrite(check, source);
    expect(recorded.outcome).toBe('queued');
    expect(recorded.sent).toBe(JSON.stringify({ length: 20 }));
  });
});

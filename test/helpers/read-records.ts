import { checkInput, type InputCheck } from '../../src/bulk/check.js';
import { readInputRecords } from '../../src/bulk/input-format.js';
import { utf8Text } from '../../src/bulk/input-text.js';
import type { ReadRecord } from '../../src/bulk/records.js';
import type { InputFormat } from '../../src/core/contract.js';
import type { NewPet } from '../../src/core/interface.js';

/** What an input read as `pets import` reads it gives: its pets, the check, the records set aside. */
export interface ReadPets {
  pets: NewPet[];
  /** Each valid record's place in the input (every record counted). */
  positions: number[];
  check: InputCheck;
  rejected: ReadRecord[];
  header: readonly string[] | undefined;
}

/** The text as a stream of bytes, cut every `chunk` bytes (a read cuts anywhere, a character too). */
export function* bytesOf(text: string | Uint8Array, chunk = 1 << 16): Generator<Uint8Array> {
  const bytes = typeof text === 'string' ? Buffer.from(text) : Buffer.from(text);
  for (let at = 0; at < bytes.length; at += chunk) yield bytes.subarray(at, at + chunk);
}

/**
 * Reads an input's text as `pets import` does (format by `given`, else the name, else the
 * start), checking every record: a bad one throws, unless `skipInvalid` sets it aside.
 */
export async function readPets(
  text: string | Uint8Array,
  source = 'f',
  options: { given?: InputFormat; name?: string; skipInvalid?: boolean; chunk?: number } = {},
): Promise<ReadPets> {
  const records = await readInputRecords(utf8Text(bytesOf(text, options.chunk), source), source, {
    given: options.given,
    name: options.name ?? source,
  });
  const pets: NewPet[] = [];
  const positions: number[] = [];
  const rejected: ReadRecord[] = [];
  // Every valid record, as read (the check digests them; this keeps them for the test).
  const seen = {
    async *[Symbol.asyncIterator]() {
      for await (const record of records.records) {
        if (record.pet !== undefined) {
          pets.push(record.pet);
          positions.push(record.position);
        }
        yield record;
      }
    },
  };
  const check = await checkInput(
    { ...records, records: seen },
    source,
    { skipInvalid: options.skipInvalid === true },
    { rejected: (record) => Promise.resolve(void rejected.push(record)) },
  );
  return { pets, positions, check, rejected, header: records.header() };
}

import { option, phrase } from '../core/phrase.js';
import { extname } from 'node:path';
import type { InputFormat } from '../core/contract.js';
import { UsageError } from '../core/errors.js';
import { parseDelimitedPets } from './records-delimited.js';
import { delimitedHeader, parsePetsFile, type PetRecords } from './records.js';

/**
 * The formats `pets import` reads: every format `pets list -o` writes data in, so a
 * listing reads back. Chosen by --input-format, else by the file's extension, else by its
 * first line (a header row is CSV or TSV; JSON starts with `[` or `{`).
 */
export { INPUT_FORMATS, type InputFormat } from '../core/contract.js';

const EXTENSIONS: Record<string, InputFormat> = {
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.csv': 'csv',
  '.tsv': 'tsv',
  '.tab': 'tsv',
};

/** The format a file's name says, if it says one (`-`, standard input, says none). */
export function formatOfName(path: string): InputFormat | undefined {
  return path === '-' ? undefined : EXTENSIONS[extname(path).toLowerCase()];
}

function firstLine(text: string): string {
  const start = text.replace(/^\uFEFF/, '').replace(/^\s*\n/, '');
  const end = start.indexOf('\n');
  return end === -1 ? start : start.slice(0, end);
}

/** The format of text whose name says none: by its first line. */
function sniffed(text: string): InputFormat | undefined {
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) return undefined; // JSON of either kind
  return delimitedHeader(firstLine(trimmed));
}

/** Refuses JSON given as CSV or TSV (by name or by --input-format), saying what it looks like. */
function refuseJson(text: string, source: string, format: InputFormat, given: boolean): void {
  const by = given ? 'the format given' : 'by its name';
  const trimmed = text.replace(/^\uFEFF/, '').trimStart();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return;
  throw new UsageError(
    `${source} looks like JSON, not ${format.toUpperCase()} (${by}); nothing was sent`,
    { hint: phrase`Give ${option('inputFormat', trimmed.startsWith('[') ? 'json' : 'ndjson')}.` },
  );
}

/**
 * The pets of an input, in the format given (--input-format), named (the extension) or seen.
 * Every record is checked before anything is sent: one bad record refuses the input, unless
 * asked to skip them (--skip-invalid), when they are set aside in `records.rejected`.
 */
export async function readPetRecords(
  text: string,
  source: string,
  options: { given?: InputFormat | undefined; name: string; skipInvalid?: boolean },
): Promise<{ records: PetRecords; format: InputFormat | undefined }> {
  const skip = { skipInvalid: options.skipInvalid === true };
  const named = formatOfName(options.name);
  const format = options.given ?? named ?? sniffed(text);
  if (format === 'csv' || format === 'tsv') {
    refuseJson(text, source, format, options.given !== undefined);
    return { records: await parseDelimitedPets(text, source, format, skip), format };
  }
  return { records: parsePetsFile(text, source, format, skip), format };
}

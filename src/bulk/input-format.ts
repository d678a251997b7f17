import type { InputFormat } from '../core/contract.js';
import { delimitedRecords } from './read-delimited.js';
import { jsonArrayRecords, ndjsonRecords, refuseNotArray } from './read-json.js';
import {
  formatOfName,
  readAhead,
  refuseJson,
  sniffedFormat,
  type InputRecords,
} from './records.js';

/**
 * The formats `pets import` reads: every format `pets list -o` writes data in, so a
 * listing reads back. Chosen by --input-format, else by the file's extension, else by its
 * first line (a header row is CSV or TSV; JSON starts with `[` or `{`).
 */
export { INPUT_FORMATS, type InputFormat } from '../core/contract.js';

/**
 * The records of an input's text, in the format given (--input-format), named (the extension)
 * or seen, as they stream. A format the text plainly is not is refused at once, by what it
 * looks like; the records are checked one at a time as they are read.
 */
export async function readInputRecords(
  text: AsyncIterable<string>,
  source: string,
  options: { given?: InputFormat | undefined; name: string },
): Promise<InputRecords> {
  const ahead = await readAhead(text);
  const format = options.given ?? formatOfName(options.name) ?? sniffedFormat(ahead.start);
  if (format === 'csv' || format === 'tsv') {
    refuseJson(ahead.start, source, format, options.given !== undefined);
    return delimitedRecords(ahead.text, source, format);
  }
  const trimmed = ahead.start.trimStart();
  if (format === 'json' && trimmed !== '' && !trimmed.startsWith('[')) {
    refuseNotArray(trimmed.split(/\r\n|\n|\r/, 1)[0]!, source);
  }
  const records = format === 'json' ? jsonArrayRecords : ndjsonRecords;
  return { format, records: records(ahead.text, source), header: () => undefined };
}

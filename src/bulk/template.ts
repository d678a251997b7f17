import { stringifyJson } from '../core/json.js';
import { NEW_PET, type NewPet } from '../core/interface.js';
import type { InputFormat } from './input-format.js';

/** The record a JSON template shows: every field of NewPet, with a value it accepts. */
const EXAMPLE: NewPet = { name: 'Rex', categoryId: 1, status: 'available' };

/**
 * What `pets import --template FORMAT` prints to start an input from: for CSV and TSV the header
 * row (NewPet's fields, as they read back), for JSON and NDJSON one example record.
 */
export function petTemplate(format: InputFormat): string {
  const fields = Object.keys(NEW_PET);
  switch (format) {
    case 'csv':
      return `${fields.join(',')}\r\n`;
    case 'tsv':
      return `${fields.join('\t')}\n`;
    case 'json':
      return `[\n  ${stringifyJson(EXAMPLE)}\n]\n`;
    case 'ndjson':
      return `${stringifyJson(EXAMPLE)}\n`;
  }
}

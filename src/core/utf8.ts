import { UsageError } from './errors.js';

/** What bytes that should be UTF-8 text are when they plainly are not: a workbook, UTF-16. */

/** How many bytes tell a workbook or UTF-16 text from UTF-8. */
export const HEAD_BYTES = 64;

/** What a file that is not UTF-8 text most likely is, and how to make it so. */
export function notUtf8(bytes: Uint8Array, source: string): UsageError | undefined {
  const starts = (...prefix: number[]) => prefix.every((byte, at) => bytes[at] === byte);
  if (starts(0x50, 0x4b, 0x03, 0x04)) {
    return new UsageError(
      `${source} is a zip file (a spreadsheet workbook such as .xlsx?), not text; nothing was sent`,
      { hint: 'Save the sheet as CSV (or "CSV UTF-8") from the spreadsheet, then add that file.' },
    );
  }
  if (starts(0xff, 0xfe) || starts(0xfe, 0xff) || utf16WithoutMark(bytes)) {
    return new UsageError(`${source} is UTF-16 text, not UTF-8; nothing was sent`, {
      hint: 'Convert it first, e.g. iconv -f UTF-16 -t UTF-8 FILE > FILE.utf8 (or save the sheet as "CSV UTF-8").',
    });
  }
  return undefined;
}

/**
 * UTF-16 text without a byte order mark: ASCII in it has a NUL in every other byte. A stray
 * NUL elsewhere is a character like any other (JSON input can carry one too).
 */
function utf16WithoutMark(bytes: Uint8Array): boolean {
  const head = bytes.subarray(0, HEAD_BYTES);
  if (head.length < 4) return false;
  const half = Math.floor(head.length / 2);
  for (const parity of [0, 1]) {
    let nuls = 0;
    // The other bytes are the text's letters: printable, or a line's end or tab. A program or
    // an image has NULs too, but not beside letters (an ELF file is no UTF-16 text).
    let letters = 0;
    for (let at = parity; at < head.length; at += 2) {
      if (head[at] === 0) nuls++;
      const other = head[at + (parity === 0 ? 1 : -1)];
      if (other !== undefined && isTextByte(other)) letters++;
    }
    if (nuls >= half * 0.75 && letters >= half * 0.9) return true;
  }
  return false;
}

/** A byte UTF-16 text of mostly Latin letters has beside each NUL: tab, line end, printable. */
const isTextByte = (byte: number) =>
  byte === 0x09 || byte === 0x0a || byte === 0x0d || (byte >= 0x20 && byte !== 0x7f);

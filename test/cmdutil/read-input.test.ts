import { describe, expect, it } from 'vitest';
import { decodeUtf8 } from '../../src/cmdutil/read-input.js';

/** What a file that is not UTF-8 text is called, and that a stray NUL is text wherever it is. */
describe('decodeUtf8', () => {
  it('names UTF-16 (with or without a mark) and zip files, whatever else they hold', () => {
    const text = 'name,categoryId\nRex,1\n';
    const utf16le = Buffer.from(text, 'utf16le');
    const utf16be = Buffer.from(utf16le).swap16();
    for (const bytes of [
      Buffer.concat([Buffer.from([0xff, 0xfe]), utf16le]),
      Buffer.concat([Buffer.from([0xfe, 0xff]), utf16be]),
      utf16le,
      utf16be,
    ]) {
      expect(() => decodeUtf8(bytes, 'in.csv')).toThrow('in.csv is UTF-16 text, not UTF-8');
    }
    // A zip's header holds NUL bytes too: it is still named a zip.
    const zip = Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 0, 0, 0, 0]);
    expect(() => decodeUtf8(zip, 'book.xlsx')).toThrow('book.xlsx is a zip file');
  });

  it('takes a stray NUL as a character, early in the file or late', () => {
    const early = 'name,categoryId\nB\u0000C,2\n';
    const late = 'name,categoryId\n' + 'A,1\n'.repeat(20) + 'B\u0000C,2\n';
    for (const text of [early, late]) expect(decodeUtf8(Buffer.from(text), 'in.csv')).toBe(text);
  });
});

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

  it('does not take a program for UTF-16: its NULs stand beside no letters', () => {
    // The start of an x86-64 ELF file: NULs in every other byte, and binary beside them.
    const header = [0x7f, 0x45, 0x4c, 0x46, 0x02, 0x01, 0x01, 0, 0, 0, 0, 0, 0, 0, 0, 0];
    const body = Array.from({ length: 240 }, (_, i) => (i % 2 ? 0 : i % 3 ? 0x8f : 0x03));
    const elf = Buffer.from([...header, ...body]);
    expect(() => decodeUtf8(elf, 'ls')).toThrow('ls, line 1: not valid UTF-8');
  });

  it('takes a stray NUL as a character, early in the file or late', () => {
    const early = 'name,categoryId\nB\u0000C,2\n';
    const late = 'name,categoryId\n' + 'A,1\n'.repeat(20) + 'B\u0000C,2\n';
    for (const text of [early, late]) expect(decodeUtf8(Buffer.from(text), 'in.csv')).toBe(text);
  });
});

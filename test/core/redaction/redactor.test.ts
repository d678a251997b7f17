import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../src/core/json.js';
import { maskKey, SecretRedactor } from '../../../src/core/redaction/index.js';

/** What a terminal shows: rows; tab stops, wide characters, cursor save, up and position. */
function screen(text: string): string {
  const rows: (string | undefined)[][] = [[]];
  let [row, column] = [0, 0];
  let saved = [0, 0];
  const wide = /[\u4e00-\u9fff]/;
  for (let i = 0; i < text.length; i++) {
    const rest = text.slice(i);
    const csi = /^\u001b\[(\d*)(?:;(\d*))?([ADGHsu])/.exec(rest);
    if (csi) {
      const n = Number(csi[1]) || 1;
      if (csi[3] === 'A') row = Math.max(0, row - n);
      else if (csi[3] === 'D') column = Math.max(0, column - n);
      else if (csi[3] === 'G') column = n - 1;
      else if (csi[3] === 'H') [row, column] = [n - 1, (Number(csi[2]) || 1) - 1];
      else if (csi[3] === 's') saved = [row, column];
      else [row, column] = saved as [number, number];
      i += csi[0].length - 1;
    } else if (rest.startsWith('\u001b7')) {
      saved = [row, column];
      i++;
    } else if (rest.startsWith('\u001b8')) {
      [row, column] = saved as [number, number];
      i++;
    } else if (text[i] === '\n') [row, column] = [row + 1, 0];
    else if (text[i] === '\r') column = 0;
    else if (text[i] === '\t') column = (Math.floor(column / 8) + 1) * 8;
    else if (text[i] === '\b') column = Math.max(0, column - 1);
    else {
      while (rows.length <= row) rows.push([]);
      rows[row]![column] = text[i]!;
      column += wide.test(text[i]!) ? 2 : 1;
    }
  }
  return rows.map((cells) => Array.from(cells, (cell) => cell ?? ' ').join('')).join('\n');
}

/** What a terminal shows of one line: backspace, CR, CSI left and column honoured. */
function drawn(text: string): string {
  const cells: (string | undefined)[] = [];
  let column = 0;
  for (let i = 0; i < text.length; i++) {
    const csi = /^\u001b\[(\d*)([DG])/.exec(text.slice(i));
    if (csi) {
      const n = Number(csi[1]) || 1;
      column = csi[2] === 'D' ? Math.max(0, column - n) : n - 1;
      i += csi[0].length - 1;
    } else if (text[i] === '\b') column = Math.max(0, column - 1);
    else if (text[i] === '\r') column = 0;
    else if (text[i] !== '\n') cells[column++] = text[i]!;
  }
  return Array.from(cells, (cell) => cell ?? ' ').join('');
}

describe('SecretRedactor', () => {
  it('masks a key in every form text can carry it: as is, JSON-escaped, percent-encoded', () => {
    const key = 'sk_live_"quoted"\\back/slash?x=1';
    const redactor = new SecretRedactor();
    redactor.add(key);
    const echoed = stringifyJson({ message: `API key ${key} is invalid` });
    const inUrl = `> GET https://api.test/v1/pets?key=${encodeURIComponent(key)}`;
    const mask = maskKey(key);
    expect(redactor.redact(`plain ${key}`)).toBe(`plain ${mask}`);
    expect(JSON.parse(redactor.redact(echoed))).toEqual({ message: `API key ${mask} is invalid` });
    expect(redactor.redact(inUrl)).toBe(
      `> GET https://api.test/v1/pets?key=${encodeURIComponent(mask)}`,
    );
  });

  it('maps a key found in the reader view back to its place after astral characters', () => {
    const redactor = new SecretRedactor();
    redactor.add('some-long-test-key-1234');
    expect(redactor.redact('😀😀 some-long-te\u200bst-key-1234 tail')).toBe('😀😀 ****1234 tail');
  });

  it('a page with a hidden character in each row, and the key in one, masks that one only', () => {
    const redactor = new SecretRedactor();
    redactor.add('some-long-test-key-1234');
    for (const hidden of ['\u202e', '\u200b', '\u001b', '\\u001b', '%E2%80%8B']) {
      const rows = Array.from(
        { length: 20_000 },
        (_, i) => `{"id":${i},"name":"Pet${hidden}${i}"}`,
      );
      rows[12_345] = `{"id":12345,"name":"some-long-${hidden}test-key-1234"}`;
      const masked = redactor.redact(rows.join(','));
      const expected = [...rows];
      expected[12_345] = `{"id":12345,"name":"****1234"}`;
      expect(masked, JSON.stringify(hidden)).toBe(expected.join(','));
    }
  });

  it('masks a key that contains another key whole', () => {
    const redactor = new SecretRedactor();
    redactor.add('sk_abcdef');
    redactor.add('sk_abcdef_longer_key');
    expect(redactor.redact('x sk_abcdef_longer_key y sk_abcdef z')).toBe('x ****_key y ****ef z');
  });

  it('masks a key whatever its letter case, and with invisible characters inside it', () => {
    const key = 'sk_live_Q7wP3mZ9vR2tY8uB';
    const redactor = new SecretRedactor();
    redactor.add(key);
    const hidden = `${key.slice(0, 5)}\u200b${key.slice(5, 9)}\u0000\r\u202e${key.slice(9)}`;
    for (const form of [key.toUpperCase(), key.toLowerCase(), hidden]) {
      expect(redactor.redact(`invalid key ${form}!`)).toBe('invalid key ****Y8uB!');
    }
  });

  it('keeps JSON and URLs valid: each form is replaced by the mask in the same form', () => {
    const key = 'sk_live_a"b\\c"d';
    const redactor = new SecretRedactor();
    redactor.add(key);
    const json = JSON.stringify({ message: `key ${key}`, other: 'x' });
    expect(JSON.parse(redactor.redact(json))).toEqual({
      message: `key ${maskKey(key)}`,
      other: 'x',
    });
    const url = `https://x.test/?k=${encodeURIComponent(key)}`;
    expect(new URL(redactor.redact(url)).searchParams.get('k')).toBe(maskKey(key));
  });

  it('masks a key of 8 characters or more, and no mask holds the key it stands for', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 8, maxLength: 40 }), fc.string(), (key, around) => {
        // Keys that can be told from data: a letter in them (so no key is asterisks only).
        fc.pre(/\p{L}/u.test(key));
        const redactor = new SecretRedactor();
        redactor.add(key);
        const masked = redactor.redact(`${around}${key}${around}`);
        expect(masked.toLowerCase()).not.toContain(key.toLowerCase());
        expect(maskKey(key).toLowerCase()).not.toContain(key.toLowerCase());
      }),
    );
  });

  it('a key too short to tell from data is never searched for: text stays exact', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 7 }), fc.string(), (key, text) => {
        const redactor = new SecretRedactor();
        redactor.add(key);
        expect(redactor.redact(`${text}${key}${text}`)).toBe(`${text}${key}${text}`);
      }),
    );
    const redactor = new SecretRedactor();
    redactor.add('1');
    redactor.add('pet');
    // Long enough, but digits only: it reads as a number, inside ids and categoryIds.
    redactor.add('123456789');
    const json = '[{"id":1234567890,"name":"petunia1","categoryId":91234567890}]';
    expect(redactor.redact(json)).toBe(json);
  });

  it('masks a key however a service spells it: any characters percent-encoded or \\u-escaped, hidden characters or terminal escapes inside', () => {
    // Visible ASCII but the escape characters themselves: a key holding `%` or `\\` followed by
    // hex digits reads differently in each encoding, and no reader can tell which was meant.
    const visible = fc.string({
      unit: fc
        .integer({ min: 0x21, max: 0x7e })
        .filter((code) => code !== 0x25 && code !== 0x5c)
        .map((code) => String.fromCharCode(code)),
      minLength: 8,
      maxLength: 30,
    });
    const spelling = fc.constantFrom(
      (c: string) => c,
      (c: string) => c.toUpperCase(),
      (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
      (c: string) => `%${c.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`,
      (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      (c: string) => `${c}\u200b`,
      (c: string) => `${c}\u001b[0m`,
      (c: string) => `${c}\u034f`,
      (c: string) => `%25${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
      (c: string) => `%252525${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
      // Invisible characters and terminal escapes, themselves escaped, inside the key.
      (c: string) => `${c}%E2%80%8B`,
      (c: string) => `${c}%e2%80%8d`,
      (c: string) => `${c}%C2%AD`,
      (c: string) => `${c}%1B%5B0m`,
      (c: string) => `${c}\\u001b[0m`,
      (c: string) => `${c}\\u200b`,
    );
    /** An independent reader: what a person or a program would take the text to say. */
    const read = (text: string) => {
      let decoded = text;
      for (let round = 0; round < 3; round++) decoded = decoded.replace(/%25/gi, '%');
      decoded = decoded.replace(/(?:%[0-9a-f]{2})+/gi, (run) =>
        Buffer.from(run.replaceAll('%', ''), 'hex').toString('utf8'),
      );
      return decoded
        .replace(/\\u([0-9a-f]{4})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)))
        .replace(/\u001b\[[\x20-\x3f]*./g, '')
        .replace(/[\p{Cc}\p{Cf}\p{DI}]/gu, '');
    };
    fc.assert(
      fc.property(
        visible,
        fc.array(spelling, { minLength: 30, maxLength: 30 }),
        fc.string({ maxLength: 10 }),
        (key, spellings, around) => {
          fc.pre(/[a-z]/i.test(key));
          const redactor = new SecretRedactor();
          redactor.add(key);
          const spelled = Array.from(key, (c, i) => spellings[i]!(c)).join('');
          const masked = redactor.redact(`${around} ${spelled} ${around}`);
          expect(read(masked).toLowerCase()).not.toContain(key.toLowerCase());
        },
      ),
    );
  });

  it("masks any 8 or more of a key's characters in a row, wherever the echo cuts it", () => {
    // Outside probes: all but the first and last characters, a head short of half, a short key.
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_]{8,48}$/).filter((key) => /[A-Za-z]/.test(key)),
        fc.nat(),
        fc.nat(),
        fc.constantFrom('invalid key ', 'name: ', '', '\t'),
        (key, from, length, lead) => {
          const redactor = new SecretRedactor();
          redactor.add(key);
          const start = from % (key.length - 7);
          const part = key.slice(start, start + 8 + (length % (key.length - start - 7)));
          const masked = redactor.redact(`${lead}${part.toUpperCase()}~ and ~${part}~`);
          for (let at = 0; at + 8 <= key.length; at++) {
            expect(masked.toLowerCase()).not.toContain(key.slice(at, at + 8).toLowerCase());
          }
        },
      ),
    );
    const key = 'sk_live_Q7wP3mZ9vR2tY8uBxK4n';
    const redactor = new SecretRedactor();
    redactor.add(key);
    expect(redactor.redact(`bad key ${key.slice(1, -1)}.`)).toBe('bad key ****.');
    // The whole key keeps its usual mask; 7 in a row, or its kind (sk_live_) alone, is data.
    expect(redactor.redact(key)).toBe(`****${key.slice(-4)}`);
    expect(redactor.redact(`a ${key.slice(8, 15)} b`)).toBe(`a ${key.slice(8, 15)} b`);
    expect(redactor.redact('keys look like sk_live_XXXXXXXX')).toBe(
      'keys look like sk_live_XXXXXXXX',
    );
  });

  it('never lets a cut-short echo and the mask together give the key away', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_]{16,48}$/).filter((key) => /[A-Za-z]/.test(key)),
        fc.nat(),
        (key, at) => {
          const redactor = new SecretRedactor();
          redactor.add(key);
          const kept = key.length - 4 + (at % 5);
          const echoed = redactor.redact(`key=${key.slice(0, Math.min(kept, key.length))};`);
          // Whatever of the key stays visible, with the mask's last four, is less than all of it.
          expect(echoed).not.toContain(key.slice(0, key.length - 4));
        },
      ),
    );
  });

  it('masks a key split by sequences a terminal runs a control inside, or cancels', () => {
    // An outside probe's separators: a terminal runs BEL or ignores DEL inside a sequence and
    // takes what follows as its final byte; CAN and SUB cancel a sequence, shown as nothing.
    const key = 'sk_live_ABCDEFGHIJ0123456789klmnopqrstuv';
    const redactor = new SecretRedactor();
    redactor.add(key);
    for (const between of [
      '\u001b\u0007Z',
      '\u001b\u007fZ',
      '\u001b[1\u007fm',
      '\u001b[1\u0007m',
      '\u001b]0;junk\u0018',
      '\u001b]0;junk\u001a',
      '\u001b[1\u0018',
      '\u001b(\u0008B',
    ]) {
      const pieces = [0, 7, 14, 21, 28, 35].map((at) => key.slice(at, at + 7));
      const masked = redactor.redact(`key: ${pieces.join(between)}\n`);
      expect(masked, JSON.stringify(between)).toContain('****');
      for (const piece of pieces.slice(0, -1)) expect(masked).not.toContain(piece);
    }
  });

  it('masks a key a terminal draws whole from pieces the text writes over each other', () => {
    // The second probe's bodies: the cursor moved back over what was written, pieces of 6.
    const key = 'h7Gk2LpQ9xRt4WmZ8sVb3NcY6dFj1KqA5eHu0TyX';
    const pieces = Array.from({ length: 7 }, (_, i) => key.slice(i * 6, i * 6 + 6));
    const redactor = new SecretRedactor();
    redactor.add(key);
    const bodies = [
      pieces.join('X\b'),
      pieces.join('ZZ\b\b'),
      pieces.join('__\u001b[2D'),
      // Each piece placed at its column, in reverse order.
      pieces
        .map((piece, i) => `\u001b[${i * 6 + 1}G${piece}`)
        .reverse()
        .join(''),
    ];
    for (const body of bodies) {
      const masked = redactor.redact(`${body}\n`);
      expect(drawn(masked), JSON.stringify(body)).not.toMatch(/[A-Za-z0-9]{8}/);
    }
  });

  it('masks a key a terminal draws from pieces placed by row, tab, saved cursor or wide text', () => {
    // The third probe's bodies: A and B, 4 characters each, drawn side by side.
    const key = 'Ab3dEf7hJk9mNp2q';
    const [a, b] = [key.slice(0, 4), key.slice(4, 8)];
    const redactor = new SecretRedactor();
    redactor.add(key);
    const bodies = [
      `\u001b7    ${b}\u001b8${a}\n`,
      `\u001b[s    ${b}\u001b[u${a}\n`,
      `\t${b}\r    ${a}\n`,
      `中中${b}\r${a}\n`,
      `    ${b}\n\u001b[A${a}\n`,
      `\n\n\u001b[1;5H${b}\u001b[1;1H${a}`,
      `{"x":"${'y'.repeat(70_000)}"}\rABCD${b}}{\r${a}\n`,
    ];
    for (const body of bodies) {
      const masked = redactor.redact(body);
      expect(screen(masked), JSON.stringify(body.slice(-40))).not.toContain(key.slice(0, 8));
    }
  });

  it('does not cut a long text inside a sequence that hides its braces', () => {
    // An outside probe: past 64 KiB, a }{ inside a window title split the key between two cuts.
    const key = '9fK2mQ7xR4tW8yB3nP6cLk';
    const redactor = new SecretRedactor();
    redactor.add(key);
    const text = `${'a'.repeat(70_000)}\n${key.slice(0, 7)}\u001b]0;}{\u0007${key.slice(7, 14)}\n`;
    const masked = redactor.redact(text);
    expect(masked).not.toContain(key.slice(0, 7));
    expect(masked).not.toContain(key.slice(7, 14));
  });

  it('masks a key split by terminal escape sequences or line breaks, however many pieces', () => {
    // What may stand between the pieces, as a terminal or a reader takes it: nothing, or a break.
    const separators = [
      '\u001b]0;title\u0007', // OSC ended by BEL
      '\u001b]52;c;aGk=\u001b\\', // OSC ended by ST
      '\u001bPq#0\u001b\\', // DCS
      '\u001b_app\u001b\\', // APC
      '\u001b^pm\u001b\\', // PM
      '\u001b(B', // a character set chosen
      '\u009b31m', // C1 CSI
      '\u009d0;x\u0007', // C1 OSC
      '\u001b[1;31m',
      '\r\n',
      '\n',
      '\t',
      '\u00a0',
      '\u2028',
    ];
    const shown = (text: string) =>
      text
        .replace(/\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)/g, '')
        .replace(/\u001b[P_^][^\u001b]*\u001b\\/g, '')
        .replace(/\u009d[^\u0007]*\u0007/g, '')
        .replace(/\u001b\(B|\u009b31m|\u001b\[1;31m/g, '')
        .replace(/[\r\n\t\u00a0\u2028]/g, '');
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z0-9_$&-]{16,40}$/).filter((key) => /[A-Za-z]/.test(key)),
        fc.uniqueArray(fc.nat(), { minLength: 1, maxLength: 3 }),
        fc.array(fc.constantFrom(...separators), { minLength: 3, maxLength: 3 }),
        (key, cuts, between) => {
          const points = [...new Set(cuts.map((cut) => 1 + (cut % (key.length - 1))))].sort(
            (a, b) => a - b,
          );
          let text = '';
          let at = 0;
          points.forEach((point, i) => {
            text += key.slice(at, point) + between[i]!;
            at = point;
          });
          text = `key was ${text}${key.slice(at)}!`;
          const redactor = new SecretRedactor();
          redactor.add(key);
          const visible = shown(redactor.redact(text));
          expect(visible).not.toContain(key);
          expect(visible).not.toContain(key.slice(0, key.length - 4));
          expect(visible).toContain('****');
        },
      ),
    );
  });

  it('masks a key inside a control string, which the sanitised text shows', () => {
    const key = 'sk_live_Q7wP3mZ9vR2tY8uB';
    const redactor = new SecretRedactor();
    redactor.add(key);
    for (const text of [
      `\u001b]0;${key}\u0007`,
      `\u001bP${key}\u001b\\`,
      `\u009d${key}`,
      `\u0098${key} never ended`,
    ]) {
      expect(redactor.redact(text)).not.toContain(key.slice(0, 12));
    }
  });

  it('masks a key split at every character by line breaks, as JSON spells them or as they are', () => {
    const key = 'Zq7aWxb9cKpdmeTbfLsg4Ry';
    const redactor = new SecretRedactor();
    redactor.add(key);
    for (const join of ['\\n', '\\t', '\\r\\n', '\\b', '\\f', '\n', '\t', '\r\n', '\u00a0']) {
      const split = Array.from(key).join(join);
      const masked = redactor.redact(`{"name":"${split}","id":1}`);
      expect(masked.replaceAll(join, '')).not.toContain(key.slice(0, 12));
      expect(masked).toContain('****');
    }
  });

  it('masks a key holding a backslash or a quote, split by a control string, in JSON', () => {
    const key = 'Zq7/Wx"9\\Kp&m<Tb+Ls%4Ry';
    const redactor = new SecretRedactor();
    redactor.add(key);
    for (const at of [3, 5, 8]) {
      for (const sequence of [
        '\u001b]8;;http://x\u001b\\',
        '\u001bPq\u001b\\',
        '\u001b_a\u001b\\',
      ]) {
        const text = JSON.stringify({ message: key.slice(0, at) + sequence + key.slice(at) });
        const masked = redactor.redact(text);
        expect(masked).toContain('****');
        expect(JSON.parse(masked) as { message: string }).not.toMatchObject({
          message: expect.stringContaining(key.slice(at, at + 8)) as string,
        });
      }
    }
  });

  it('masks a key that itself holds what reads as an escape, whatever else the service escapes', () => {
    const cases: [key: string, echoed: string][] = [
      ['ab%41cdefghijKL', '%61b%41cdefghijKL'],
      ['ab\\tcdefghijKL', '\\u0061b\\tcdefghijKL'],
      [
        'sk%41Live&$Q"abcdefghijklmnopqrstuvwxyz0123456789%7eZZ\\end!x',
        '\\u0053K%41LIVE&$Q"ABCDEF\u200bGHIJKLMNOPQRSTUVWXYZ0123456789%7eZZ\\END!\\u0078',
      ],
      // Cut short: its first 40 of 60 characters, one of them percent-encoded.
      [
        'sk%41Live&$Q"abcdefghijklmnopqrstuvwxyz0123456789%7eZZ\\end!x',
        '%53K%41LIVE&$Q"ABCDEFGHIJKLMNOPQRSTUVWXYZ0',
      ],
    ];
    for (const [key, echoed] of cases) {
      const redactor = new SecretRedactor();
      redactor.add(key);
      const masked = redactor.redact(`name: ${echoed}.`);
      expect(masked, echoed).toMatch(/^name: \*{4}\S*\.$/);
      expect(masked.toLowerCase()).not.toContain('cdefghij');
    }
    // A control: text that merely shares a few characters with such a key stays as it is.
    const redactor = new SecretRedactor();
    redactor.add('ab%41cdefghijKL');
    expect(redactor.redact('Fluffy ab%41 and cdef')).toBe('Fluffy ab%41 and cdef');
  });

  it('shows at most four characters of a key, fewer of a short one', () => {
    expect(maskKey('sk_live_0123456789')).toBe('****6789');
    expect(maskKey('sk_12345')).toBe('****45');
    expect(maskKey('abc')).toBe('****');
  });
});

describe('a long text is masked a segment at a time', () => {
  it('finds every key, wherever the segments end, in every spelling', () => {
    const key = 'sk_live_Abc123Def456Ghi';
    const redactor = new SecretRedactor();
    redactor.add(key);
    const spellings = [
      key,
      'sk_live_Abc123\u200bDef456Ghi',
      'sk_live_\\u0041bc123Def456Ghi',
      'sk_live_Abc%31%323Def456Ghi',
      'sk_live_Abc123\u001b[2JDef456Ghi',
    ];
    // About 200 KiB of records, a key in every 97th, so some sit on each segment's edge.
    const rows = Array.from({ length: 3000 }, (_, i) =>
      i % 97 === 0
        ? `{"id":${i},"name":"${spellings[i % spellings.length]!}"}`
        : `{"id":${i},"name":"Pet\u202e${i}"}`,
    );
    for (const separator of [',', ',\n', '\n']) {
      const text = `[${rows.join(separator)}]`;
      const masked = redactor.redact(text);
      expect(masked.split('****6Ghi').length - 1, JSON.stringify(separator)).toBe(
        rows.filter((_, i) => i % 97 === 0).length,
      );
      expect(masked).not.toMatch(/Def456/);
      // Nothing else changed: the rows without a key come out as they went in.
      expect(masked.replace(/\{"id":\d+,"name":"\*\*\*\*6Ghi"\}/g, '')).toBe(
        text.replace(/\{"id":\d+,"name":"sk_live[^"]*"\}/g, ''),
      );
    }
  });
});

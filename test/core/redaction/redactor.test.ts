import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../../src/core/json.js';
import { maskKey, MASK, SecretRedactor } from '../../../src/core/redaction/index.js';
import { runLength } from '../../../src/core/redaction/secret-forms.js';

/**
 * The last net's promise (decision 0012): a known secret is masked whole, in any letter case
 * and in a transport's encodings (hex, base64, base64url, percent-encoding, JSON and Unicode
 * escapes), and any part of it too long to be ordinary text; ordinary text never changes.
 */

const redactorOf = (...keys: string[]) => {
  const redactor = new SecretRedactor();
  for (const key of keys) redactor.add(key);
  return redactor;
};

/** Keys as services issue them: a kind, then random letters and digits. */
const key = fc
  .tuple(
    fc.constantFrom('', 'sk_live_', 'sk_test_', 'ghp_', 'xoxb-'),
    fc.string({
      unit: fc.constantFrom(...Array.from('abcdefghijkLMNOPQRSTUVwxyz0123456789')),
      minLength: 8,
      maxLength: 40,
    }),
  )
  .map(([kind, body]) => kind + body)
  .filter((k) => /[a-z]/i.test(k));

/** Whether the text holds a part of the key long enough to be masked (the naive search). */
function holdsPart(text: string, secret: string): boolean {
  const least = Math.min(runLength(secret), secret.length);
  const lower = text.toLowerCase();
  const of = secret.toLowerCase();
  for (let at = 0; at + least <= of.length; at++) {
    if (lower.includes(of.slice(at, at + least))) return true;
  }
  return false;
}

describe('what the last net masks', () => {
  it('sandbox-key: ordinary names sharing words with it print as typed; the key itself is masked', () => {
    const redactor = redactorOf('sandbox-key');
    for (const name of [
      'sandbox-demo',
      'My sandbox-kit',
      'sandbox-keyring'.slice(0, 10),
      'the sandbox key',
    ]) {
      expect(redactor.redact(name)).toBe(name);
    }
    expect(redactor.redact('sandbox-key')).toBe(maskKey('sandbox-key'));
    // A key made of words: names typed in their own case share them and print as typed; a part
    // of it in its own case, long enough, is an echo.
    const words = redactorOf('fluffy-kitten-42');
    for (const name of ['Fluffy-Kitten', 'Fluffy-Kitten Club', 'fluffy kitten 42']) {
      expect(words.redact(name)).toBe(name);
    }
    expect(words.redact('FLUFFY-KITTEN-42')).toBe(maskKey('fluffy-kitten-42'));
    expect(words.redact('id fluffy-kitten-4')).toBe('id ****');
    expect(redactor.redact('My SANDBOX-KEY ring')).toBe(`My ${maskKey('sandbox-key')} ring`);
  });

  it('never changes text that holds no long enough part of a key, nor its encodings', () => {
    fc.assert(
      fc.property(
        key,
        fc.array(fc.oneof(fc.string(), fc.constantFrom('sk_', 'live', '-', '_')), { maxLength: 8 }),
        (secret, parts) => {
          // Text made of pieces of the key no longer than what is ordinary, and other words.
          const pieces = parts.map((part, i) => (i % 2 ? secret.slice(i, i + 11) : part));
          const text = pieces.join(' ');
          fc.pre(!holdsPart(text, secret));
          expect(redactorOf(secret).redact(text)).toBe(text);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('masks the key whole in any letter case, and any part of it long enough', () => {
    fc.assert(
      fc.property(key, fc.nat(), fc.nat(), fc.string(), (secret, from, extra, around) => {
        const least = Math.min(runLength(secret), secret.length);
        const start = from % (secret.length - least + 1);
        const part = secret.slice(
          start,
          start + least + (extra % (secret.length - start - least + 1)),
        );
        const redactor = redactorOf(secret);
        for (const shown of [secret, secret.toUpperCase(), part]) {
          const masked = redactor.redact(`${around}[${shown}]${around}`);
          expect(masked.toLowerCase()).not.toContain(shown.toLowerCase());
          expect(masked).toContain(MASK);
        }
      }),
    );
  });

  it('masks the key in every transport encoding: hex, base64, base64url, standalone or inside', () => {
    fc.assert(
      fc.property(
        key,
        fc.uint8Array({ maxLength: 5 }),
        fc.uint8Array({ maxLength: 5 }),
        (secret, before, after) => {
          const bytes = Buffer.concat([
            Buffer.from(before),
            Buffer.from(secret),
            Buffer.from(after),
          ]);
          const redactor = redactorOf(secret);
          const hex = Buffer.from(secret).toString('hex');
          for (const shown of [
            hex,
            hex.toUpperCase(),
            Buffer.from(secret).toString('base64'),
            Buffer.from(secret).toString('base64url'),
            bytes.toString('base64'),
            bytes.toString('base64url'),
          ]) {
            // An encoding without a letter is a number (the hex of `abcdefgh`): left, below.
            if (!/[a-z]/i.test(shown)) continue;
            const masked = redactor.redact(`id ${shown} end`);
            expect(masked, shown).toContain(MASK);
            // Of the key's own encoding, nothing long is left.
            expect(masked).not.toContain(Buffer.from(secret).toString('base64').slice(4, 16));
            expect(masked.toLowerCase()).not.toContain(hex.slice(2, 18));
          }
        },
      ),
    );
  });

  it('masks the key however its characters are escaped: percent-encoding, JSON and Unicode escapes', () => {
    const escape = {
      percent: (c: string) => `%${c.charCodeAt(0).toString(16).padStart(2, '0')}`,
      json: (c: string) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
      unicode: (c: string) => `\\u{${c.charCodeAt(0).toString(16)}}`,
    };
    fc.assert(
      fc.property(
        key,
        fc.array(fc.boolean(), { minLength: 1 }),
        fc.constantFrom('percent', 'json', 'unicode'),
        (secret, which, how) => {
          const spelled = Array.from(secret, (c, i) =>
            which[i % which.length] ? escape[how](c) : c,
          ).join('');
          const masked = redactorOf(secret).redact(`"message":"key ${spelled} refused"`);
          expect(masked).toContain(MASK);
          expect(masked).not.toContain(spelled);
        },
      ),
    );
  });

  it('keeps JSON and URLs valid: each form is replaced by the mask in the same form', () => {
    const secret = 'sk_live_a"b\\c"d/e';
    const redactor = redactorOf(secret);
    const json = JSON.stringify({ message: `key ${secret}`, other: 'x' });
    expect(JSON.parse(redactor.redact(json))).toEqual({
      message: `key ${maskKey(secret)}`,
      other: 'x',
    });
    const url = `https://x.test/?k=${encodeURIComponent(secret)}`;
    expect(new URL(redactor.redact(url)).searchParams.get('k')).toBe(maskKey(secret));
    expect(redactor.redact(stringifyJson({ name: secret }))).toBe(
      stringifyJson({ name: maskKey(secret) }),
    );
  });

  it('masks a key that contains another key whole', () => {
    const redactor = redactorOf('sk_abcdef', 'sk_abcdef_longer_key');
    expect(redactor.redact('x sk_abcdef_longer_key y sk_abcdef z')).toBe('x ****_key y ****ef z');
  });

  it('a key too short to tell from data is never searched for: text stays exact', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 7 }), fc.string(), (secret, text) => {
        expect(redactorOf(secret).redact(`${text}${secret}${text}`)).toBe(
          `${text}${secret}${text}`,
        );
      }),
    );
    // Long enough, but digits only: it reads as a number, inside ids and categoryIds.
    const json = '[{"id":1234567890,"name":"petunia1","categoryId":91234567890}]';
    expect(redactorOf('1', 'pet', '123456789').redact(json)).toBe(json);
  });

  it('an encoding of a key that reads as a number is data: JSON keeps its numbers', () => {
    // The hex of abcdefgh is 6162636465666768: a category id as good as any.
    const json = '{"id":1,"name":"order 6162636465666768","categoryId":6162636465666768}';
    expect(redactorOf('abcdefgh').redact(json)).toBe(json);
    expect(redactorOf('abcdefgh').redact('{"name":"abcdefgh"}')).toBe('{"name":"****gh"}');
  });

  it('a key with backslashes, quotes or percents: JSON and URLs stay valid, and mean no more', () => {
    fc.assert(
      fc.property(
        fc.string({
          unit: fc.constantFrom(...Array.from('ab-Z9\\"%/t1u')),
          minLength: 0,
          maxLength: 20,
        }),
        fc.string({
          unit: fc.constantFrom(...Array.from('Sup3r-SeCret\\"%')),
          minLength: 16,
          maxLength: 24,
        }),
        fc.nat(),
        (around, secret, cut) => {
          fc.pre(SecretRedactor.findable(secret));
          const redactor = redactorOf(secret);
          // The key whole, or a long part of it, inside a name, as JSON and in a URL.
          const part = secret.slice(cut % 4);
          for (const name of [`${around}${secret}${around}`, `${around}${part}`]) {
            const json = JSON.stringify({ name });
            const masked = redactor.redact(json);
            const read = JSON.parse(masked) as { name: string };
            expect(read.name).not.toContain(secret);
            // Nothing the key did not hold appears: no tab, no line break made from its `\t`.
            expect(read.name).not.toMatch(/[\t\n\r\b\f]/);
            const url = `https://x.test/pets?name=${encodeURIComponent(name)}`;
            expect(() => decodeURIComponent(redactor.redact(url))).not.toThrow();
          }
        },
      ),
    );
    const tailed = 'Sup3r-SeCret-T\\1';
    expect(maskKey(tailed)).toBe('****');
  });

  it('never takes a tab or a line break with a mask: a row keeps its columns', () => {
    const secret = 'sk_test_Zq8Lm2Nx7Vb4';
    const row = `1\t${secret}\t3\n`;
    expect(redactorOf(secret).redact(row)).toBe(`1\t${maskKey(secret)}\t3\n`);
  });

  it('shows at most four characters of a key, fewer of a short one', () => {
    expect(maskKey('sk_live_abcdefgh')).toBe('****efgh');
    expect(maskKey('abcdefghi')).toBe('****hi');
    expect(maskKey('abcdefg')).toBe('****');
  });

  it('reads a long text once: many keys and many near misses, each found in its place', () => {
    const secret = 'sk_live_Q7wP3mZ9vR2tY8uB';
    const rows = Array.from({ length: 50_000 }, (_, i) =>
      i % 997 === 0 ? `{"name":"${secret}"}` : `{"name":"sk_live_Q7w${i}"}`,
    );
    const masked = redactorOf(secret).redact(rows.join(','));
    expect(masked.split(maskKey(secret)).length - 1).toBe(Math.ceil(50_000 / 997));
    expect(masked).not.toContain(secret);
    expect(masked).toContain('sk_live_Q7w12');
  });
});

import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sanitizeLine, sanitizeText } from '../../src/core/sanitize.js';
import { csvField, tsvField } from '../../src/output/cells.js';

const FAMILY = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}';
const RAINBOW_FLAG = '\u{1F3F3}\uFE0F\u200D\u{1F308}';
const FIREFIGHTER_DARK = '\u{1F469}\u{1F3FF}\u200D\u{1F692}';
const RED_HEART = '\u2764\uFE0F';
const KEYCAP_ONE = '1\uFE0F\u20E3';
const ENGLAND = '\u{1F3F4}\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}';
const EMOJI = [FAMILY, RAINBOW_FLAG, FIREFIGHTER_DARK, RED_HEART, KEYCAP_ONE, ENGLAND];

const everyForm = (text: string) => [
  sanitizeLine(text),
  sanitizeText(text),
  csvField(text),
  tsvField(text),
];

describe('the invisible characters an emoji is made of', () => {
  it.each(EMOJI)('are kept in tables, messages, CSV and TSV: %s', (emoji) => {
    for (const form of everyForm(`Rex ${emoji} the dog`)) expect(form).toBe(`Rex ${emoji} the dog`);
  });

  it('are removed where they join or style nothing a reader sees', () => {
    const cases: [string, string][] = [
      ['a\u200Db', 'ab'], // a joiner between letters
      ['\u{1F468}\u200Dx', '\u{1F468}x'], // a joiner after a pictograph, before a letter
      ['x\u200D\u{1F469}', 'x\u{1F469}'],
      ['\uFE0Fstart', 'start'], // a variation selector after nothing
      ['a\uFE0F', 'a'], // after a letter
      // Tags that spell words under a flag (hidden text), not one of the recommended flags.
      ['\u{1F3F4}\u{E0068}\u{E0069}\u{E007F}', '\u{1F3F4}'],
      ['hi\u{E0067}\u{E0062}\u{E0065}\u{E006E}\u{E0067}\u{E007F}', 'hi'],
    ];
    for (const [input, expected] of cases) {
      for (const form of everyForm(input)) expect(form, JSON.stringify(input)).toBe(expected);
    }
  });

  it('never leave a joiner, selector or tag outside an emoji, whatever surrounds them', () => {
    const pieces = fc.constantFrom(
      '\u200D',
      '\uFE0F',
      '\uFE0E',
      '\u{E0067}',
      '\u{E007F}',
      '\u{1F3F4}',
      '\u{1F468}',
      '\u{1F3FB}',
      'a',
      '1',
      ' ',
      '\u202E',
    );
    fc.assert(
      fc.property(fc.array(pieces, { maxLength: 12 }), (parts) => {
        const text = parts.join('');
        for (const form of everyForm(text)) {
          expect(form).not.toMatch(/\u202E/u);
          // Every joiner left sits between two pictographs (a skin tone or selector may precede).
          for (const match of form.matchAll(/\u200D/gu)) {
            const before = form.slice(0, match.index);
            const after = form.slice(match.index + 1);
            expect(before).toMatch(/\p{Extended_Pictographic}(?:[\u{1F3FB}-\u{1F3FF}]|\uFE0F)?$/u);
            expect(after).toMatch(/^\p{Extended_Pictographic}/u);
          }
          // Tags only inside England's flag, here the one recommended flag that can be built.
          expect(form.replaceAll(ENGLAND, '')).not.toMatch(/[\u{E0020}-\u{E007F}]/u);
          for (const match of form.matchAll(/[\uFE0E\uFE0F]/gu)) {
            expect(form.slice(0, match.index)).toMatch(/\p{Emoji}$/u);
          }
        }
      }),
    );
  });
});

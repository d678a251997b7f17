import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitToWidth, helpProse } from '../../src/cmdutil/help-text.js';

const word = fc.string({
  unit: fc.constantFrom(...Array.from('abcdefgh-,.')),
  minLength: 1,
  maxLength: 12,
});

describe('fitToWidth', () => {
  it('keeps every word, in order, and no line wider than the width but a lone long word', () => {
    fc.assert(
      fc.property(
        fc.array(fc.array(word, { minLength: 1, maxLength: 40 }), { minLength: 1, maxLength: 5 }),
        fc.integer({ min: 20, max: 100 }),
        fc.nat(6),
        (paragraphs, width, indent) => {
          const text = paragraphs.map((words) => ' '.repeat(indent) + words.join(' ')).join('\n');
          const fitted = fitToWidth(text, width);
          expect(fitted.split(/\s+/).filter(Boolean)).toEqual(text.split(/\s+/).filter(Boolean));
          for (const line of fitted.split('\n')) {
            if (line.length > width) expect(line.trim()).not.toContain(' ');
          }
        },
      ),
    );
  });

  it('continues a wide example as a shell does, never inside quotes', () => {
    const example = `  $ petstore journal show ./run.journal -o ndjson | jq -c 'select(.outcome != "created")'`;
    const fitted = fitToWidth(example, 60).split('\n');
    expect(fitted).toEqual([
      '  $ petstore journal show ./run.journal -o ndjson | jq -c \\',
      `      'select(.outcome != "created")'`,
    ]);
    // Pasted into a shell, the lines read as the one command.
    expect(fitted.join('\n').replace(/ \\\n\s+/g, ' ')).toBe(example);
  });

  it('leaves lines that fit as they are', () => {
    const help = 'Usage: petstore pets list [options]\n\n  --limit <n>  at most n\n';
    expect(fitToWidth(help, 80)).toBe(help);
  });
});

describe('helpProse', () => {
  it('joins each paragraph into one line, leaving headings and examples, the first one too', () => {
    const text =
      '\nOne paragraph\nwritten on two lines.\n\nExamples:\n  $ petstore history\n  $ petstore history show 1';
    expect(helpProse(text)).toBe(
      '\nOne paragraph written on two lines.\n\nExamples:\n  $ petstore history\n  $ petstore history show 1',
    );
  });
});

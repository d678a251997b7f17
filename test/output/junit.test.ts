import { describe, expect, it } from 'vitest';
import { renderJUnit } from '../../src/output/junit.js';

describe('renderJUnit', () => {
  it('escapes text and drops characters XML cannot hold', () => {
    const xml = renderJUnit(
      's',
      [{ name: 'a<b>&"c"', outcome: 'fail', durationMs: 1500, detail: 'bad\u0000 <x>' }],
      new Date('2026-11-22T00:00:00Z'),
    );
    expect(xml).toContain('name="a&lt;b&gt;&amp;&quot;c&quot;" time="1.500"');
    expect(xml).toContain('<failure message="bad &lt;x&gt;"/>');
    expect(xml).toContain('timestamp="2026-11-22T00:00:00.000Z"');
  });

  it('keeps what a CI page would show a person safe, and every character XML can hold', () => {
    const detail = 'evil\u202e\u2066txt\u009b31m\r\u200b\u3164 pet 🐕 名前';
    const xml = renderJUnit(
      's',
      [{ name: 'n', outcome: 'fail', durationMs: 1, detail }],
      new Date('2026-11-22T00:00:00Z'),
    );
    expect(xml).toContain('<failure message="eviltxt31m pet 🐕 名前"/>');
    expect(xml).not.toMatch(/[\u202e\u2066\u009b\r\u200b\u3164]/);
  });
});

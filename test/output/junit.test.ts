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
});

import { describe, expect, it } from 'vitest';
import { warnUnknownSinceQueued } from '../../src/bulk/import-checks.js';

/** What a resume is told of records whose outcome the journal cannot know, and why. */
function warned(noBoot: number[], otherBoot: number[]): string[] {
  const said: string[] = [];
  warnUnknownSinceQueued({ noBoot, otherBoot }, (message) => said.push(message));
  return said;
}

describe('records queued and never journaled as sent', () => {
  it('are named, with why their outcome cannot be known', () => {
    expect(warned([], [])).toEqual([]);
    const [noBoot] = warned([7], []);
    expect(noBoot).toMatch(
      /^record 7 queued and never journaled as sent: its outcome cannot be known, so it counts as unknown\. This machine's boot could not be told/,
    );
    const [rebooted] = warned([], [3, 5, 9]);
    expect(rebooted).toMatch(
      /^records 3, 5 and 9 queued .*: their outcome .* they count as unknown\. The machine has booted since/,
    );
    const many = Array.from({ length: 12 }, (_, i) => i + 1);
    expect(warned(many, [])[0]).toMatch(/^records 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 and 2 more queued/);
  });
});

import { describe, expect, it } from 'vitest';
import { endHint, REFUSED_HINT, resumeHint } from '../../src/mcp/batch-hints.js';

describe('what add_pets says to do after a batch that did not end whole', () => {
  it('pets the service refused are not sent again by calling again: a new batch is the way', () => {
    expect(endHint('b1', { failed: 2, unknown: 0, notAttempted: 0 })).toBe(REFUSED_HINT);
    expect(REFUSED_HINT).toContain('another batch_id');
    expect(REFUSED_HINT).not.toMatch(/--|petstore /);
  });

  it('unknown or unsent pets are completed by calling again, with the same batch_id', () => {
    expect(endHint('b1', { failed: 0, unknown: 1, notAttempted: 3 })).toBe(resumeHint('b1'));
    const both = endHint('b1', { failed: 1, unknown: 1, notAttempted: 0 });
    expect(both).toContain('batch_id "b1"');
    expect(both).toContain(REFUSED_HINT);
  });
});

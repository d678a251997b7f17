import nock from 'nock';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';

/**
 * Blocks real network access for the file and fails a test that leaves a scripted response
 * unrequested, so every `nock(...)` line is an assertion too.
 */
export function useNockGuard(): void {
  beforeAll(() => nock.disableNetConnect());
  afterAll(() => nock.enableNetConnect());
  afterEach(() => {
    const pending = nock.pendingMocks();
    nock.cleanAll();
    expect(pending, 'every scripted response was requested').toEqual([]);
  });
}

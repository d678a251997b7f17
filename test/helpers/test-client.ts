import { afterEach } from 'vitest';
import {
  PetstoreClient,
  type ClientOptions,
  type DeprecationNotice,
} from '../../src/api/client.js';

export interface TestClient {
  instance: PetstoreClient;
  /** Every backoff the client asked to sleep, in ms (it does not really sleep). */
  delays: number[];
  log: string[];
  notices: DeprecationNotice[];
}

/**
 * A client factory for the file: instant sleeps, jitter fixed at the middle, a fixed clock,
 * and everything it logs or notices recorded. Clients are closed after each test.
 */
export function useTestClients(defaults: Partial<ClientOptions> & Pick<ClientOptions, 'apiKey'>) {
  const open: PetstoreClient[] = [];
  afterEach(async () => {
    for (const instance of open.splice(0)) await instance.close();
  });
  return (overrides: Partial<ClientOptions> = {}): TestClient => {
    const recorded = {
      delays: [] as number[],
      log: [] as string[],
      notices: [] as DeprecationNotice[],
    };
    const instance = new PetstoreClient({
      profile: 'test',
      timeoutSeconds: 5,
      retries: 2,
      userAgent: 'petstore-cli/test',
      sleep: (ms) => {
        recorded.delays.push(ms);
        return Promise.resolve();
      },
      random: () => 0.5,
      now: () => Date.parse('2026-11-22T00:00:00Z'),
      log: (line) => recorded.log.push(line),
      onDeprecation: (notice) => recorded.notices.push(notice),
      ...defaults,
      ...overrides,
    });
    open.push(instance);
    return { instance, ...recorded };
  };
}

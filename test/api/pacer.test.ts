import { describe, expect, it } from 'vitest';
import { Pacer, parseRateLimit } from '../../src/api/pacer.js';

/** A pacer on a clock the test moves: sleeping moves it. */
function paced() {
  let now = 1_000_000;
  const slept: number[] = [];
  const pacer = new Pacer({
    now: () => now,
    sleep: (ms) => {
      slept.push(ms);
      now += ms;
      return Promise.resolve();
    },
  });
  return { pacer, slept, tick: (ms: number) => (now += ms) };
}

describe('the pacer', () => {
  it('never waits for a service that says nothing of its limit', async () => {
    const { pacer, slept } = paced();
    for (let i = 0; i < 100; i++) {
      expect(await pacer.take(30_000)).toBeUndefined();
      pacer.learn({});
    }
    expect(slept).toEqual([]);
  });

  it('sends what is left, then waits for the quota to come back instead of being refused', async () => {
    const { pacer, slept } = paced();
    await pacer.take(30_000);
    pacer.learn({ ratelimit: '"default";r=2;t=1' });
    await pacer.take(30_000);
    await pacer.take(30_000);
    expect(slept).toEqual([]);
    // None left: the next waits the second the service named.
    await pacer.take(30_000);
    expect(slept).toEqual([1000]);
  });

  it('counts the requests still in flight against what is left', async () => {
    const { pacer, slept } = paced();
    for (let i = 0; i < 3; i++) await pacer.take(30_000);
    // Said with 2 still in flight: 3 left means 1 more may go.
    pacer.learn({ ratelimit: '"default";r=3;t=2' });
    await pacer.take(30_000);
    expect(slept).toEqual([]);
    await pacer.take(30_000);
    expect(slept).toEqual([2000]);
  });

  it('a wait longer than allowed is returned, not waited', async () => {
    const { pacer, slept } = paced();
    await pacer.take(30_000);
    pacer.learn({ ratelimit: '"default";r=0;t=90' });
    expect(await pacer.take(30_000)).toBe(90_000);
    expect(slept).toEqual([]);
  });

  it.each([
    ['"default";r=42;t=17', { remaining: 42, resetSeconds: 17 }],
    ['"a";r=1;t=5, "b";r=9;t=60', { remaining: 1, resetSeconds: 5 }],
    ['"default";r=0', { remaining: 0, resetSeconds: 1 }],
    ['limit=100', undefined],
    [undefined, undefined],
  ])('reads RateLimit %j', (text, fields) => {
    expect(parseRateLimit(text)).toEqual(fields);
  });
});

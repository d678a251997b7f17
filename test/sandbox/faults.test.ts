import { afterEach, describe, expect, it } from 'vitest';
import { Command } from '@commander-js/extra-typings';
import { toFaultSettings, withFaultFlags } from '../../src/commands/sandbox/fault-flags.js';
import { Faults } from '../../src/sandbox/faults.js';
import { startSandboxServer, type RunningSandbox } from '../../src/sandbox/server.js';
import type { FaultSettings } from '../../src/sandbox/faults.js';

const KEY = 'sandbox-faults-key';
const running: RunningSandbox[] = [];
afterEach(async () => {
  for (const sandbox of running.splice(0)) await sandbox.close();
});

async function start(faults: FaultSettings) {
  const sandbox = await startSandboxServer({
    host: '127.0.0.1',
    port: 0,
    database: ':memory:',
    apiKeys: [KEY],
    faults,
  });
  running.push(sandbox);
  return sandbox;
}

const headers = { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' };
const addRex = (sandbox: RunningSandbox) =>
  fetch(`${sandbox.apiBaseUrl}/pets`, {
    method: 'POST',
    headers,
    body: '{"name":"Rex","categoryId":1}',
  });
const countPets = async (sandbox: RunningSandbox) =>
  ((await (await fetch(`${sandbox.apiBaseUrl}/pets?limit=100`, { headers })).json()) as unknown[])
    .length;

describe('sandbox faults on demand', () => {
  it('draws the same faults from the same seed', () => {
    const draw = (seed: number) => {
      const faults = new Faults({
        seed,
        failRate: 0.5,
        dropAfterSend: 0.5,
        latencyMs: { min: 10, max: 90 },
      });
      return Array.from({ length: 50 }, () => [
        faults.failure(),
        faults.dropsAnswer(),
        faults.latency(),
      ]);
    };
    expect(draw(7)).toEqual(draw(7));
    expect(draw(7)).not.toEqual(draw(8));
    const latencies = draw(7).map(([, , latency]) => latency as number);
    expect(Math.min(...latencies)).toBeGreaterThanOrEqual(10);
    expect(Math.max(...latencies)).toBeLessThanOrEqual(90);
    const failures = draw(7).filter(([status]) => status === 503).length;
    expect(failures).toBeGreaterThan(10);
    expect(failures).toBeLessThan(40);
  });

  it('rate limits with a bucket of one second, saying how long to wait', () => {
    let now = 0;
    const faults = new Faults({ seed: 1, rateLimitPerSecond: 2 }, () => now);
    expect([faults.rateLimited(), faults.rateLimited(), faults.rateLimited()]).toEqual([
      undefined,
      undefined,
      1,
    ]);
    now = 500;
    expect([faults.rateLimited(), faults.rateLimited()]).toEqual([undefined, 1]);
  });

  it('--fail-rate 1: every request fails with the status asked for, and does nothing', async () => {
    const sandbox = await start({ seed: 1, failRate: 1, failStatus: 503 });
    const response = await addRex(sandbox);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('1');
    expect(await response.json()).toMatchObject({ code: 'injected_fault', status: 503 });
  });

  it('--drop-after-send 1: the pet is created, the connection reset unanswered', async () => {
    const sandbox = await start({ seed: 1, dropAfterSend: 1 });
    await expect(addRex(sandbox)).rejects.toThrow();
    await expect(addRex(sandbox)).rejects.toThrow();
    expect(await countPets(sandbox)).toBe(2);
  });

  it('--rate-limit: 429 with Retry-After over the rate', async () => {
    const sandbox = await start({ seed: 1, rateLimitPerSecond: 1 });
    expect((await addRex(sandbox)).status).toBe(201);
    const limited = await addRex(sandbox);
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('1');
  });

  it('lists the faults that are on for the banner, with the seed', async () => {
    const sandbox = await start({ seed: 42, latencyMs: { min: 5, max: 5 }, dropAfterSend: 0.1 });
    expect(sandbox.faults).toEqual([
      'latency 5 ms before each request',
      '10% of writes take effect, then the connection is reset unanswered',
      'seed 42 (give --seed 42 to draw the same faults)',
    ]);
  });
});

describe('sandbox serve fault flags', () => {
  /** The flags as commander parses them through their declaration, then as fault settings. */
  const faultsOf = (args: string[]) => {
    const command = withFaultFlags(new Command('serve').exitOverride());
    command.parse(args, { from: 'user' });
    return toFaultSettings(command.opts());
  };

  it('parses ranges, rates and shares; none asked for means no faults', () => {
    expect(faultsOf(['--seed', '3'])).toBeUndefined();
    expect(
      faultsOf([
        '--latency',
        '20-200',
        '--fail-rate',
        '0.25',
        '--fail-status',
        '500',
        '--rate-limit',
        '50/s',
        '--drop-after-send',
        '0.1',
        '--seed',
        '3',
      ]),
    ).toEqual({
      latencyMs: { min: 20, max: 200 },
      failRate: 0.25,
      failStatus: 500,
      rateLimitPerSecond: 50,
      dropAfterSend: 0.1,
      seed: 3,
    });
  });

  it.each([
    [['--latency', '200-20'], '--latency 200-20: the range must go from low to high'],
    [['--fail-rate', '1.5'], '--fail-rate must be a number from 0 to 1, got "1.5"'],
    [['--fail-status', '503'], '--fail-status needs --fail-rate P'],
    [['--rate-limit', '0'], '--rate-limit must be a whole number from 1 to 1000000, got "0"'],
  ])('refuses %j', (args, message) => {
    expect(() => faultsOf(args)).toThrow(message);
  });
});

import { describe, expect, it } from 'vitest';
import { InterruptedError } from '../../../src/core/errors.js';
import { StopController } from '../../../src/core/stop.js';
import {
  runSmokeRounds,
  UNREACHABLE,
  type SmokeRunOptions,
} from '../../../src/operations/smoke/run.js';
import { sandboxService } from '../../helpers/sandbox-service.js';
import { useTestClients } from '../../helpers/test-client.js';

const clients = useTestClients({ apiKey: 'sk_in_process_sandbox' });

const options = (overrides: Partial<SmokeRunOptions> = {}): SmokeRunOptions => ({
  allowWrites: false,
  maxLatencyMs: undefined,
  repeat: undefined,
  everyMs: undefined,
  ...overrides,
});

async function deps(key = 'sk_in_process_sandbox') {
  const service = await sandboxService();
  const baseUrl = service.env.PETSTORE_BASE_URL;
  const quickstartUrl = baseUrl.replace(/\/v1$/, '/quickstart');
  const stop = new StopController(
    { onSignal: () => () => undefined },
    { onFirst: () => undefined, onSecond: () => new InterruptedError('stopped') },
  );
  return {
    service,
    deps: {
      client: clients({ baseUrl, quickstartUrl, apiKey: key }).instance,
      unauthenticated: clients({ baseUrl, quickstartUrl, apiKey: 'sk_never_known_0000' }).instance,
      target: { quickstartUrl },
      stop,
      interrupted: new Promise<'interrupted'>(() => undefined),
    },
  };
}

describe('runSmokeRounds against the sandbox', () => {
  it('passes every read check, skips the writes unless allowed, and adds nothing', async () => {
    const { service, deps: ready } = await deps();
    const rounds: number[] = [];
    const outcome = await runSmokeRounds(ready, options(), (round) => rounds.push(round));
    expect(rounds).toEqual([1]);
    const [results] = outcome.results;
    expect(results!.filter((r) => r.outcome === 'fail')).toEqual([]);
    expect(results!.some((r) => r.outcome === 'pass')).toBe(true);
    expect(results!.filter((r) => r.outcome === 'skip').map((r) => r.detail)).toContain(
      'writes to the service',
    );
    expect(outcome.created).toEqual([]);
    expect(outcome.keyRefused).toBe(false);
    expect(await service.names()).toEqual([]);
  });

  it('with writes allowed, adds its pet and says which', async () => {
    const { service, deps: ready } = await deps();
    const outcome = await runSmokeRounds(ready, options({ allowWrites: true }), () => undefined);
    expect(outcome.results[0]!.filter((r) => r.outcome === 'fail')).toEqual([]);
    expect(outcome.created).toHaveLength(1);
    expect(await service.names()).toEqual([outcome.created[0]!.name]);
  });

  it('runs the rounds a canary asks for', async () => {
    const { deps: ready } = await deps();
    const rounds: number[] = [];
    const outcome = await runSmokeRounds(ready, options({ repeat: 3 }), (round) =>
      rounds.push(round),
    );
    expect(rounds).toEqual([1, 2, 3]);
    expect(outcome.results).toHaveLength(3);
  });

  it('a key the service refuses is said as such, not only as failed checks', async () => {
    const { deps: ready } = await deps('sk_not_a_key_of_this_sandbox');
    const outcome = await runSmokeRounds(ready, options(), () => undefined);
    expect(outcome.keyRefused).toBe(true);
    expect(outcome.results[0]!.some((r) => r.outcome === 'fail')).toBe(true);
  });

  it('a check slower than the latency asked fails, naming its time', async () => {
    const { deps: ready } = await deps();
    const outcome = await runSmokeRounds(ready, options({ maxLatencyMs: 1e-9 }), () => undefined);
    const failed = outcome.results[0]!.filter((r) => r.outcome === 'fail');
    expect(failed.length).toBeGreaterThan(0);
    for (const result of failed) expect(result.detail).toMatch(/over the [\d.e-]+ ms allowed/);
  });

  it('a service that cannot be reached: the first check says why, the rest are not run, rounds end', async () => {
    const { deps: ready } = await deps();
    // Nothing listens on port 9 of this machine: the connection is refused.
    const closed = {
      baseUrl: 'http://127.0.0.1:9/v1',
      quickstartUrl: 'http://127.0.0.1:9/quickstart',
    };
    const rounds: number[] = [];
    const outcome = await runSmokeRounds(
      {
        ...ready,
        client: clients({ ...closed, apiKey: 'sk_in_process_sandbox', retries: 0 }).instance,
        unauthenticated: clients({ ...closed, apiKey: 'sk_never_known_0000', retries: 0 }).instance,
      },
      options({ repeat: 3, allowWrites: true }),
      (round) => rounds.push(round),
    );
    expect(rounds).toEqual([1]);
    expect(outcome.unreachable?.code).toBe('ECONNREFUSED');
    const [first, ...rest] = outcome.results[0]!;
    expect(first).toMatchObject({ outcome: 'fail' });
    expect(first!.detail).toMatch(/cannot reach 127\.0\.0\.1:9/);
    expect(rest.length).toBeGreaterThan(5);
    expect(rest.every((r) => r.outcome === 'skip' && r.detail === UNREACHABLE)).toBe(true);
  });
});

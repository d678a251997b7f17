import { HISTORY_RETENTION } from '../core/contract.js';
import { parseDuration } from '../core/duration.js';
import { UsageError } from '../core/errors.js';
import type { Env } from '../core/io.js';

/**
 * Whether writes are recorded, and for how long, from the environment: PETSTORE_HISTORY
 * (`on`, the default, or `off`) and PETSTORE_HISTORY_RETENTION (a duration such as 90d, the
 * default, or `forever`). Returns `off`, the retention in ms, or undefined for forever.
 */
export function historyRetention(env: Env): 'off' | number | undefined {
  const recording = (env.PETSTORE_HISTORY ?? '').trim().toLowerCase();
  if (recording === 'off' || recording === '0' || recording === 'false') return 'off';
  if (recording !== '' && recording !== 'on' && recording !== '1' && recording !== 'true') {
    throw new UsageError(
      `PETSTORE_HISTORY must be on or off (got ${JSON.stringify(env.PETSTORE_HISTORY)})`,
      { hint: 'Unset it to record writes (the default), or set it to off.' },
    );
  }
  const retention = (env.PETSTORE_HISTORY_RETENTION ?? '').trim().toLowerCase();
  if (retention === '') return HISTORY_RETENTION.defaultMs;
  if (retention === 'forever') return undefined;
  const ms = parseDuration(retention, HISTORY_RETENTION.maxMs);
  if (ms === undefined) {
    throw new UsageError(
      `PETSTORE_HISTORY_RETENTION must be a duration such as 30d or 12w, or forever (got ${JSON.stringify(env.PETSTORE_HISTORY_RETENTION)})`,
      { hint: 'Unset it to keep 90 days of history.' },
    );
  }
  return ms;
}

/**
 * The history's settings as a run uses them: a value it cannot read is said (the problem) and
 * the default kept, so a history setting never stops a command, a read or the agent's server.
 */
export function historySettings(env: Env): {
  retention: 'off' | number | undefined;
  problem: string | undefined;
} {
  try {
    return { retention: historyRetention(env), problem: undefined };
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const recording = (env.PETSTORE_HISTORY ?? '').trim().toLowerCase();
    const off = recording === 'off' || recording === '0' || recording === 'false';
    return {
      retention: off ? 'off' : HISTORY_RETENTION.defaultMs,
      problem: `${reason}; the history keeps its default (on, 90 days)`,
    };
  }
}

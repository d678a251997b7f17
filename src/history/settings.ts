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

import { IDEMPOTENCY_KEY_WINDOW } from '../../src/core/contract.js';
import type { ImportRequest } from '../../src/operations/pets/import.js';

/** An import as `pets import` asks for one by default, with `overrides`. */
export function importRequest(overrides: Partial<ImportRequest> = {}): ImportRequest {
  return {
    file: undefined,
    resume: undefined,
    journal: undefined,
    batchId: undefined,
    concurrency: 4,
    failFast: false,
    dryRun: false,
    retryFailed: false,
    retryUnknown: false,
    printAll: false,
    keyWindow: {
      windowMs: IDEMPOTENCY_KEY_WINDOW.defaultMs,
      marginMs: IDEMPOTENCY_KEY_WINDOW.marginMs,
      ignore: false,
    },
    ...overrides,
  };
}

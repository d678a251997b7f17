import { describe, expect, it } from 'vitest';
import { unknownApiKey } from '../../src/core/api-key.js';
import { SecretRedactor } from '../../src/core/redaction/index.js';

describe('the key smoke makes for the service to refuse', () => {
  it("is masked where it shows, and masks no word of the service's answers", () => {
    const answer =
      '{"code":"invalid_limit","message":"limit must be 1 to 100"} invalid_status unauthorized petstore-smoke-1a2b';
    for (let round = 0; round < 200; round++) {
      const key = unknownApiKey();
      const redactor = new SecretRedactor();
      redactor.add(key);
      expect(redactor.redact(answer)).toBe(answer);
      expect(redactor.redact(`Bearer ${key}`)).not.toContain(key);
      expect(key).not.toBe(unknownApiKey());
    }
  });
});

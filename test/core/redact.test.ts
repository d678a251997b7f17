import { describe, expect, it } from 'vitest';
import { stringifyJson } from '../../src/core/json.js';
import { SecretRedactor } from '../../src/core/redact.js';

describe('SecretRedactor', () => {
  it('masks a key in every form text can carry it: as is, JSON-escaped, percent-encoded', () => {
    const key = 'sk_live_"quoted"\\back/slash?x=1';
    const redactor = new SecretRedactor();
    redactor.add(key);
    const echoed = stringifyJson({ message: `API key ${key} is invalid` });
    const inUrl = `> GET https://api.test/v1/pets?key=${encodeURIComponent(key)}`;
    for (const text of [`plain ${key}`, echoed, inUrl]) {
      const redacted = redactor.redact(text);
      expect(redacted).toContain('****?x=1');
      expect(redacted).not.toContain('quoted');
    }
  });

  it('masks a key that contains another key whole', () => {
    const redactor = new SecretRedactor();
    redactor.add('sk_abcdef');
    redactor.add('sk_abcdef_longer_key');
    expect(redactor.redact('x sk_abcdef_longer_key y sk_abcdef z')).toBe('x ****_key y ****cdef z');
  });

  it('leaves keys too short to tell from words alone', () => {
    const redactor = new SecretRedactor();
    redactor.add('abc');
    expect(redactor.redact('abc')).toBe('abc');
  });
});

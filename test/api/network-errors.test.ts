import { describe, expect, it } from 'vitest';
import { toNetworkError, wasNeverSent } from '../../src/api/network-errors.js';

const url = new URL('https://api.example.test/v1/pets');

function systemError(code: string) {
  return Object.assign(new Error(`boom ${code}`), { code });
}

describe('toNetworkError', () => {
  it.each([
    ['ENOTFOUND', 'host not found (DNS)'],
    ['ECONNRESET', 'connection reset by the server'],
    ['UND_ERR_CONNECT_TIMEOUT', 'timed out while connecting'],
    ['CERT_HAS_EXPIRED', 'TLS failure (CERT_HAS_EXPIRED)'],
    ['ERR_TLS_CERT_ALTNAME_INVALID', 'TLS failure (ERR_TLS_CERT_ALTNAME_INVALID)'],
  ])('describes %s', (code, description) => {
    const error = toNetworkError(systemError(code), url, 30);
    expect(error.message).toBe(`cannot reach api.example.test: ${description}`);
    expect(error.code).toBe(code);
  });

  it('finds the code on a wrapped cause', () => {
    const wrapped = new Error('fetch failed', { cause: systemError('ECONNREFUSED') });
    expect(toNetworkError(wrapped, url, 30).code).toBe('ECONNREFUSED');
  });

  it('knows which failures happen before anything is sent', () => {
    expect(wasNeverSent(toNetworkError(systemError('ECONNREFUSED'), url, 30))).toBe(true);
    expect(wasNeverSent(toNetworkError(systemError('ECONNRESET'), url, 30))).toBe(false);
    expect(wasNeverSent(toNetworkError(systemError('UND_ERR_HEADERS_TIMEOUT'), url, 30))).toBe(
      false,
    );
  });
});

import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { main } from '../../src/main.js';
import { fakeIO } from '../helpers/fake-io.js';
import { useNockGuard } from '../helpers/nock-guard.js';
import { JSON_HEADERS, serviceEnv } from '../helpers/service-env.js';

const env = serviceEnv('sk_live_COMMANDS_5555');

useNockGuard();

describe('cleartext guard', () => {
  it('refuses to send a key over http to a remote host', async () => {
    const io = fakeIO({ tty: true });
    const cleartext = { ...env, PETSTORE_BASE_URL: 'http://api.petstore.test/v1' };
    expect(await main(['pets', 'list'], io, cleartext)).toBe(2);
    expect(io.err()).toContain('refusing to send the API key over plain http to api.petstore.test');
  });

  it('allows it with --allow-insecure-http', async () => {
    nock('http://api.petstore.test').get('/v1/pets').reply(200, '[]', JSON_HEADERS);
    const cleartext = { ...env, PETSTORE_BASE_URL: 'http://api.petstore.test/v1' };
    expect(await main(['pets', 'list', '--allow-insecure-http'], fakeIO(), cleartext)).toBe(0);
  });
});

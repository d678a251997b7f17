import nock from 'nock';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  ENV_KEY,
  JSON_HEADERS,
  STAGING,
  STORED_KEY,
  useConfigHome,
} from '../helpers/config-home.js';
import { useNockGuard } from '../helpers/nock-guard.js';

useNockGuard();
const cli = useConfigHome();
const { run, login } = cli;

describe('precedence: flag > environment > stored > default', () => {
  beforeEach(async () => {
    await run(['profile', 'set', 'staging', '--base-url', `${STAGING}/v1`]);
    await run(['profile', 'set', 'qa', '--base-url', 'https://qa.petstore.test/v1']);
    await login('staging');
    await login('qa', 'sk_qa_key_4444');
    await run(['profile', 'use', 'staging']);
  });

  function expectList(origin: string, key: string) {
    return nock(origin, { reqheaders: { authorization: `Bearer ${key}` } })
      .get('/v1/pets')
      .reply(200, '[]', JSON_HEADERS);
  }

  it('uses the active profile and its stored key', async () => {
    expectList(STAGING, STORED_KEY);
    expect((await run(['pets', 'list'])).code).toBe(0);
  });

  it('PETSTORE_PROFILE beats the active profile; --profile beats both', async () => {
    expectList('https://qa.petstore.test', 'sk_qa_key_4444');
    expect((await run(['pets', 'list'], { env: { PETSTORE_PROFILE: 'qa' } })).code).toBe(0);
    expectList(STAGING, STORED_KEY);
    expect(
      (await run(['--profile', 'staging', 'pets', 'list'], { env: { PETSTORE_PROFILE: 'qa' } }))
        .code,
    ).toBe(0);
  });

  it('PETSTORE_API_KEY beats the stored key', async () => {
    expectList(STAGING, ENV_KEY);
    expect((await run(['pets', 'list'], { env: { PETSTORE_API_KEY: ENV_KEY } })).code).toBe(0);
  });

  it('PETSTORE_BASE_URL beats the stored URL; --base-url beats both', async () => {
    expectList('https://env.petstore.test', STORED_KEY);
    const fromEnv = { PETSTORE_BASE_URL: 'https://env.petstore.test/v1' };
    expect((await run(['pets', 'list'], { env: fromEnv })).code).toBe(0);
    expectList('https://flag.petstore.test', STORED_KEY);
    const args = ['pets', 'list', '--base-url', 'https://flag.petstore.test/v1'];
    expect((await run(args, { env: fromEnv })).code).toBe(0);
  });

  it('never prints a stored or environment key, whatever the command', async () => {
    nock(STAGING).get('/v1/pets').times(4).reply(200, '[]', JSON_HEADERS);
    const outputs: string[] = [];
    for (const args of [
      ['profile', 'list'],
      ['profile', 'show'],
      ['auth', 'status'],
      ['-v', 'pets', 'list'],
      ['-v', 'pets', 'list', '-o', 'table'],
    ]) {
      for (const extra of [{}, { PETSTORE_API_KEY: ENV_KEY }] as Record<string, string>[]) {
        const result = await run(args, { env: extra });
        outputs.push(result.out, result.err);
      }
    }
    const all = outputs.join('\n');
    expect(all).toContain('****k123');
    expect(all).not.toContain(STORED_KEY);
    expect(all).not.toContain(ENV_KEY);
  });
});

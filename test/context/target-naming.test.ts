import { describe, expect, it } from 'vitest';
import { useConfigHome } from '../helpers/config-home.js';

const cli = useConfigHome();
const { run, login } = cli;
const URL = 'https://elsewhere.petstore.test/v1';

/** The first `petstore ...` command a hint proposes, as argv. */
function proposedCommand(stderr: string): string[] | undefined {
  const match = /petstore (.+?)(?:, | \(|\.\s|\.?$)/m.exec(stderr.slice(stderr.indexOf('hint:')));
  return match?.[1]?.trim().split(/\s+/);
}

describe('messages name the target really used', () => {
  it('a URL given without a profile is named, and its hint does not loop', async () => {
    const result = await run([
      '--base-url',
      URL,
      'pets',
      'add',
      '--name',
      'A',
      '--category-id',
      '1',
    ]);
    expect(result.code).toBe(3);
    expect(result.err).toContain(`no API key for ${URL}`);
    expect(result.err).not.toContain('sandbox');
    // Following the hint works: it makes a profile for the URL, then logs in to it.
    const first = proposedCommand(result.err);
    expect(first).toEqual(['profile', 'set', 'NAME', '--base-url', URL]);
    expect((await run(['profile', 'set', 'elsewhere', '--base-url', URL])).code).toBe(0);
    await login('elsewhere');
  });

  it('PETSTORE_BASE_URL without a profile is named the same way', async () => {
    const result = await run(['pets', 'list'], { env: { PETSTORE_BASE_URL: URL } });
    expect(result.code).toBe(3);
    expect(result.err).toContain(`no API key for ${URL}`);
    expect(result.err).not.toMatch(/auth login --profile sandbox/);
  });

  it('a chosen profile without a key is told to log in to that profile', async () => {
    await run(['profile', 'set', 'qa', '--base-url', URL]);
    const result = await run(['--profile', 'qa', 'pets', 'list']);
    expect(result.code).toBe(3);
    expect(result.err).toContain('no API key for profile qa');
    expect(proposedCommand(result.err)).toEqual(['auth', 'login', '--profile', 'qa']);
  });

  it('a URL with no quickstart URL: named, and the hint is one that works (not profile set sandbox)', async () => {
    const result = await run(['--base-url', URL, 'message', 'send', 'hi'], {
      env: { PETSTORE_API_KEY: 'sk_test_message_key' },
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain(`${URL} has no quickstart URL`);
    expect(result.err).toContain('--quickstart-url URL');
    expect(result.err).not.toContain('profile set sandbox');
    const api = await run(['--base-url', URL, 'api', 'quickstart:/messages', '-f', 'message=hi'], {
      env: { PETSTORE_API_KEY: 'sk_test_message_key' },
    });
    expect(api.code).toBe(2);
    expect(api.err).not.toContain('profile set sandbox');
    // A profile of the user's own is told to set it.
    await run(['profile', 'set', 'qa', '--base-url', URL]);
    const own = await run(['--profile', 'qa', 'message', 'send', 'hi'], {
      env: { PETSTORE_API_KEY: 'sk_test_message_key' },
    });
    expect(proposedCommand(own.err)).toEqual(['profile', 'set', 'qa', '--quickstart-url', 'URL']);
  });

  it('a profile with neither URL nor key is reported for the URL first', async () => {
    const result = await run(['--profile', 'production', 'pets', 'list']);
    expect(result.code).toBe(2);
    expect(result.err).toContain('profile "production" has no base URL');
    expect(result.err).not.toContain('API key');
  });
});

import { freshHome } from './run-cli.js';

/** Origins no real service has: nock or a fake transport answers for them. */
export const ORIGIN = 'https://api.petstore.test';
export const QUICKSTART = 'https://qs.petstore.test';
export const JSON_HEADERS = { 'content-type': 'application/json' };

/** An environment that points petstore at ORIGIN and QUICKSTART with `key`, in a new home. */
export function serviceEnv(key: string): Record<string, string> {
  return {
    HOME: freshHome(),
    PETSTORE_BASE_URL: `${ORIGIN}/v1`,
    PETSTORE_QUICKSTART_URL: QUICKSTART,
    PETSTORE_API_KEY: key,
  };
}

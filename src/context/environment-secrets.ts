import { credentialSecrets } from '../core/redaction/index.js';

/** The environment variables that hold a URL or a proxy, either letter case for proxies. */
export const URL_VARIABLES = [
  'HTTP_PROXY',
  'HTTPS_PROXY',
  'ALL_PROXY',
  'http_proxy',
  'https_proxy',
  'all_proxy',
  'PETSTORE_BASE_URL',
  'PETSTORE_QUICKSTART_URL',
] as const;

/**
 * The secrets the environment gives a run, known before anything is parsed: the API key
 * (PETSTORE_API_KEY) and the credentials of every URL variable. `hidden`: masked with no tail.
 */
export function environmentSecrets(env: Readonly<Record<string, string | undefined>>): {
  keys: string[];
  hidden: string[];
} {
  const key = env.PETSTORE_API_KEY?.trim();
  return {
    keys: key ? [key] : [],
    hidden: URL_VARIABLES.flatMap((name) => credentialSecrets(env[name] ?? '')),
  };
}

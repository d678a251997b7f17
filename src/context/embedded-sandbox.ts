import { isEmbeddedProfile } from '../config/profiles.js';
import type { Settings } from './settings.js';

/**
 * Whether a run with this profile talks to the sandbox it starts itself: the sandbox profile,
 * unless --base-url or PETSTORE_BASE_URL names another service. The one rule, for doctor too.
 */
export function servesEmbeddedSandbox(
  profile: string,
  settings: Pick<Settings, 'baseUrl'>,
): boolean {
  return isEmbeddedProfile(profile) && settings.baseUrl === undefined;
}

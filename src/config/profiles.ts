import { command, option, phrase } from '../core/phrase.js';
import { didYouMean } from '../core/did-you-mean.js';
import { UsageError } from '../core/errors.js';
import type { Env } from '../core/io.js';
import type { AgentWrites, ConfigData, ProfileRecord } from './schema.js';

export const SANDBOX_PROFILE = 'sandbox';
export const BUILTIN_PROFILES = ['production', 'staging', SANDBOX_PROFILE] as const;
/** The active profile on a fresh machine: the embedded service needs nothing configured. */
export const DEFAULT_PROFILE = SANDBOX_PROFILE;

const PROFILE_NAME = /^[a-z0-9][a-z0-9_-]{0,39}$/i;

export type ProfileSource = 'flag' | 'env' | 'config' | 'default';
export type KeySource = 'env' | 'keyring' | 'config' | 'sandbox' | 'none';

export interface ProfileSelection {
  name: string;
  source: ProfileSource;
}

/**
 * Whether the profile's service is the embedded sandbox: it has no URLs to set and takes no
 * key. The one place that asks; a resolved Target says it as `embeddedSandbox`.
 */
export function isEmbeddedProfile(name: string): boolean {
  return name === SANDBOX_PROFILE;
}

/**
 * What an agent may write through the profile: as set (`profile set --agent-writes`), else
 * nothing in production and, elsewhere, only what the person confirms.
 */
export function agentWritesOf(data: ConfigData, name: string): AgentWrites {
  return storedProfile(data, name).agentWrites ?? (name === 'production' ? 'deny' : 'confirm');
}

export function isBuiltInProfile(name: string): boolean {
  return (BUILTIN_PROFILES as readonly string[]).includes(name);
}

export function validateProfileName(name: string): string {
  if (!PROFILE_NAME.test(name)) {
    throw new UsageError(`invalid profile name "${name}"`, {
      hint: 'Use up to 40 letters, digits, "-" or "_", starting with a letter or digit.',
    });
  }
  return name;
}

export function profileNames(data: ConfigData): string[] {
  const custom = Object.keys(data.profiles)
    .filter((name) => !isBuiltInProfile(name))
    .sort();
  return [...BUILTIN_PROFILES, ...custom];
}

export function profileExists(data: ConfigData, name: string): boolean {
  return isBuiltInProfile(name) || Object.hasOwn(data.profiles, name);
}

export function activeProfile(data: ConfigData): string {
  return data.activeProfile ?? DEFAULT_PROFILE;
}

/**
 * Which profile a command uses: --profile > PETSTORE_PROFILE (`chosen`, when either was given)
 * > `profile use` > sandbox.
 */
export function selectProfile(
  chosen: { name: string; source: 'flag' | 'env' } | undefined,
  data: ConfigData,
): ProfileSelection {
  const selection: ProfileSelection = chosen
    ? { name: chosen.name, source: chosen.source }
    : data.activeProfile
      ? { name: data.activeProfile, source: 'config' }
      : { name: DEFAULT_PROFILE, source: 'default' };
  if (!profileExists(data, selection.name)) {
    const from =
      selection.source === 'env'
        ? ' (from PETSTORE_PROFILE)'
        : selection.source === 'config'
          ? ' (the active profile)'
          : '';
    throw noSuchProfile(selection.name, data, from);
  }
  return selection;
}

/** A profile named that does not exist: with the names closest to it, and where to see all. */
export function noSuchProfile(name: string, data: ConfigData, from = ''): UsageError {
  const close = didYouMean(name, profileNames(data));
  return new UsageError(`no profile named "${name}"${from}${close}`, {
    hint: phrase`See them with: ${command('profile list')}; create one with: ${command('profile set')} ${name} ${option('baseUrl', 'URL')}`,
  });
}

export function storedProfile(data: ConfigData, name: string): ProfileRecord {
  return Object.hasOwn(data.profiles, name) ? data.profiles[name]! : {};
}

export function environmentKey(env: Env): string | undefined {
  const key = env.PETSTORE_API_KEY?.trim();
  return key === undefined || key === '' ? undefined : key;
}

export { maskKey } from '../core/redaction/index.js';

import {
  activeProfile,
  agentWritesOf,
  environmentKey,
  isBuiltInProfile,
  maskKey,
  isEmbeddedProfile,
  storedProfile,
  type KeySource,
} from '../config/profiles.js';
import type { AgentWrites, ConfigData } from '../config/schema.js';
import type { Env } from '../core/io.js';
import type { Column } from '../output/render.js';

/** A profile as commands show it: URLs, and the key only masked. */
export interface ProfileView {
  name: string;
  active: boolean;
  builtIn: boolean;
  baseUrl: string | null;
  quickstartUrl: string | null;
  key: string | null;
  keySource: KeySource;
  /** The stored key that PETSTORE_API_KEY hides, masked. */
  overriddenStoredKey: string | null;
  /** What petstore mcp --allow-writes may write through it. */
  agentWrites: AgentWrites;
}

/**
 * A profile's view. `keyringKey` is the key the OS keyring answered for a profile whose key
 * lives there (or the reason it did not answer); without it the key shows as unknown.
 */
export function describeProfile(
  name: string,
  data: ConfigData,
  env: Env,
  keyringKey?: { key?: string | undefined; problem?: string | undefined },
): ProfileView {
  const stored = storedProfile(data, name);
  const envKey = environmentKey(env);
  const sandbox = isEmbeddedProfile(name);
  const inKeyring = stored.keyStore === 'keyring';
  const keySource: KeySource = envKey
    ? 'env'
    : sandbox
      ? 'sandbox'
      : inKeyring
        ? 'keyring'
        : stored.apiKey
          ? 'config'
          : 'none';
  const key = envKey ?? (inKeyring ? keyringKey?.key : stored.apiKey);
  return {
    name,
    active: activeProfile(data) === name,
    builtIn: isBuiltInProfile(name),
    baseUrl: stored.baseUrl ?? null,
    quickstartUrl: stored.quickstartUrl ?? null,
    key: key
      ? maskKey(key)
      : keySource === 'keyring'
        ? `(${keyringKey?.problem ?? 'in the keyring'})`
        : null,
    keySource,
    overriddenStoredKey:
      envKey && stored.apiKey ? maskKey(stored.apiKey) : envKey && inKeyring ? '(keyring)' : null,
    agentWrites: agentWritesOf(data, name),
  };
}

const KEY_SOURCE_LABELS: Record<KeySource, string> = {
  env: 'env PETSTORE_API_KEY',
  keyring: 'keyring',
  config: 'config',
  sandbox: 'built in',
  none: 'none',
};

export function keySourceLabel(view: ProfileView): string {
  return KEY_SOURCE_LABELS[view.keySource];
}

export function baseUrlLabel(view: ProfileView): string {
  if (isEmbeddedProfile(view.name)) return '(embedded local service)';
  return view.baseUrl ?? '(not set)';
}

export const PROFILE_COLUMNS: Column<ProfileView>[] = [
  { header: 'active', value: (view) => (view.active ? '*' : '') },
  { header: 'name', value: (view) => view.name },
  {
    header: 'baseUrl',
    value: baseUrlLabel,
    tone: (view) => (view.baseUrl || isEmbeddedProfile(view.name) ? undefined : 'muted'),
  },
  { header: 'key', value: (view) => view.key ?? '' },
  { header: 'keySource', value: keySourceLabel },
  { header: 'agentWrites', value: (view) => view.agentWrites },
];

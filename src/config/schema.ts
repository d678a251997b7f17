import { ConfigError } from '../core/errors.js';

export const SCHEMA_VERSION = 1;

export interface ProfileRecord {
  baseUrl?: string;
  quickstartUrl?: string;
  /** A key kept in this file (0600): with --insecure-storage, or when no keyring answered. */
  apiKey?: string;
  /** The key is in the OS keyring, under (petstore-cli, profile name); never in this file. */
  keyStore?: 'keyring';
  /** What an agent (petstore mcp) may write through this profile; absent: the default. */
  agentWrites?: AgentWrites;
}

/**
 * What `petstore mcp --allow-writes` may do with a write an agent asks for: send it, ask the
 * person first (MCP elicitation), or refuse it.
 */
export const AGENT_WRITES = ['allow', 'confirm', 'deny'] as const;
export type AgentWrites = (typeof AGENT_WRITES)[number];

export interface ConfigData {
  schemaVersion: number;
  activeProfile?: string;
  profiles: Record<string, ProfileRecord>;
}

/**
 * The profiles by name with no prototype: a profile named `constructor` or `toString` is a
 * profile like any other, never a function every object inherits (which `profile set` took for
 * an existing profile, then saved nothing).
 */
function profileTable(profiles: Record<string, unknown>): Record<string, ProfileRecord> {
  return Object.assign(Object.create(null) as Record<string, ProfileRecord>, profiles);
}

export function emptyConfig(): ConfigData {
  return { schemaVersion: SCHEMA_VERSION, profiles: profileTable({}) };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const PROFILE_FIELDS = ['baseUrl', 'quickstartUrl', 'apiKey'] as const;

/**
 * Checks what was read from the file. Anything unexpected is an error naming the file: the file
 * is never rewritten or wiped to "repair" it. Files without a version are version 1.
 */
export function validateConfig(raw: unknown, path: string): ConfigData {
  const damaged = (what: string) =>
    new ConfigError(`config file ${path} is damaged: ${what}`, path, {
      hint: `Fix it by hand, or move it away to start afresh; petstore left it untouched.`,
    });
  if (!isRecord(raw)) throw damaged('expected a JSON object');
  const version = raw.schemaVersion ?? SCHEMA_VERSION;
  if (typeof version !== 'number' || !Number.isInteger(version)) {
    throw damaged('"schemaVersion" is not a whole number');
  }
  if (version > SCHEMA_VERSION) {
    throw new ConfigError(
      `config file ${path} was written by a newer petstore (schema ${version}; this one knows ${SCHEMA_VERSION})`,
      path,
      { hint: 'Upgrade petstore: npm install -g petstore-cli@latest' },
    );
  }
  const profiles = raw.profiles ?? {};
  if (!isRecord(profiles)) throw damaged('"profiles" is not an object');
  for (const [name, profile] of Object.entries(profiles)) {
    if (!isRecord(profile)) throw damaged(`profile "${name}" is not an object`);
    for (const field of PROFILE_FIELDS) {
      if (profile[field] !== undefined && typeof profile[field] !== 'string') {
        throw damaged(`profile "${name}": "${field}" is not a string`);
      }
    }
    if (
      profile.agentWrites !== undefined &&
      !(AGENT_WRITES as readonly unknown[]).includes(profile.agentWrites)
    ) {
      throw damaged(`profile "${name}": "agentWrites" is not one of ${AGENT_WRITES.join(', ')}`);
    }
    if (profile.keyStore !== undefined && profile.keyStore !== 'keyring') {
      throw damaged(`profile "${name}": "keyStore" is not "keyring"`);
    }
  }
  if (raw.activeProfile !== undefined && typeof raw.activeProfile !== 'string') {
    throw damaged('"activeProfile" is not a string');
  }
  return { ...raw, schemaVersion: SCHEMA_VERSION, profiles: profileTable(profiles) };
}

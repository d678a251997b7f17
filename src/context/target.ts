import { command, option, phrase, type Hint } from '../core/phrase.js';
import { isEmbeddedProfile, type KeySource } from '../config/profiles.js';
import type { ServiceTarget } from '../api/create-client.js';
import { MissingCredentialError } from '../core/errors.js';

/** Where requests go and with which key, after profile and precedence rules are applied. */
export interface Target extends ServiceTarget {
  /**
   * What messages name as the target: "profile staging", or the URL itself when --base-url or
   * PETSTORE_BASE_URL chose it, so no message names a profile that was not used.
   */
  label: string;
  /** True when the base URL came from --base-url or PETSTORE_BASE_URL, not from the profile. */
  baseUrlOverridden: boolean;
  /**
   * The global options that reach this target again from any shell, for the commands a hint
   * gives (`--profile staging`, `--base-url URL`); none for the default sandbox profile.
   */
  reachedWith: string[];
  /** True when requests go to the embedded sandbox this run started (the sandbox profile). */
  embeddedSandbox: boolean;
  keySource: KeySource;
  /** Stops what serving this target needed (the embedded sandbox). */
  close?: () => Promise<void>;
}

/**
 * What to do about a target without a key. It never points at a command that would refuse:
 * the sandbox profile takes no stored key, so a URL used without a profile of its own is told
 * to use PETSTORE_API_KEY or a profile made for it.
 */
export function missingKeyProblem(target: Target): { message: string; hint: Hint } {
  if (target.baseUrlOverridden && isEmbeddedProfile(target.profile)) {
    return {
      message: `no API key for ${target.baseUrl ?? target.label}`,
      hint: phrase`Set PETSTORE_API_KEY, or keep the URL and its key in a profile: ${command('profile set')} NAME ${option('baseUrl', target.baseUrl ?? 'URL')}, then ${command('auth login', { profile: 'NAME' })}.`,
    };
  }
  return {
    message: `no API key for ${target.label}`,
    hint: phrase`Run: ${command('auth login', { profile: target.profile })} (or set PETSTORE_API_KEY).`,
  };
}

/** A profile with no URL at all is reported for that first: a key alone would not help. */
export function missingUrlProblem(target: Target): { message: string; hint: Hint } {
  return {
    message: `profile "${target.profile}" has no base URL`,
    hint: phrase`Run: ${command('profile set')} ${target.profile} ${option('baseUrl', 'URL')} (or pass ${option('baseUrl')}, or set PETSTORE_BASE_URL).`,
  };
}

/** A key that cannot go in a header: say where it came from, never what it is. */
export function unusableKeyError(target: Target, problem: string): MissingCredentialError {
  const from =
    target.keySource === 'env'
      ? 'PETSTORE_API_KEY'
      : `the key stored for profile ${target.profile}`;
  const hint =
    target.keySource === 'env'
      ? 'Set PETSTORE_API_KEY again, e.g. export PETSTORE_API_KEY="$(cat key.txt)" (no trailing newline).'
      : phrase`Store it again: ${command('auth login', { profile: target.profile })}`;
  return new MissingCredentialError(`${from} cannot be used: ${problem}`, { hint });
}

import { isLoopbackHost, parseServiceUrl } from '../api/url-policy.js';
import {
  activeProfile,
  DEFAULT_PROFILE,
  isBuiltInProfile,
  profileExists,
  profileNames,
  SANDBOX_PROFILE,
  selectProfile,
  validateProfileName,
} from '../config/profiles.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import { confirm } from '../output/prompt.js';
import { describeProfile, PROFILE_COLUMNS } from './profile-view.js';

export async function runProfileList(ctx: Context): Promise<void> {
  const data = await (await ctx.config()).read();
  const views = profileNames(data).map((name) => describeProfile(name, data, ctx.env));
  await ctx.render(views, PROFILE_COLUMNS);
}

export async function runProfileShow(ctx: Context, name: string | undefined): Promise<void> {
  const data = await (await ctx.config()).read();
  const chosen = name ?? selectProfile(ctx.settings, data).name;
  if (!profileExists(data, chosen)) throw noSuchProfile(chosen);
  const view = describeProfile(chosen, data, ctx.env);
  await ctx.render(view, PROFILE_COLUMNS);
  if (view.overriddenStoredKey) {
    ctx.notice(`PETSTORE_API_KEY overrides the stored key ${view.overriddenStoredKey}.`);
  }
}

export async function runProfileUse(ctx: Context, name: string): Promise<void> {
  const store = await ctx.config();
  await store.update((data) => {
    if (!profileExists(data, name)) throw noSuchProfile(name);
    data.activeProfile = name;
  });
  ctx.notice(`Active profile: ${name}.`);
}

export interface ProfileSetOptions {
  name: string;
  baseUrl?: string | undefined;
  quickstartUrl?: string | undefined;
}

function checkUrl(ctx: Context, value: string, flag: string): string {
  const url = parseServiceUrl(value, flag);
  if (flag === '--base-url' && !/\/v1\/?$/.test(url.pathname)) {
    ctx.warn(`the base URL path "${url.pathname}" does not end with /v1, as the service's do`);
  }
  if (url.protocol === 'http:' && !isLoopbackHost(url.hostname)) {
    ctx.warn(`${flag} is plain http: commands will need --allow-insecure-http to send the key`);
  }
  return value;
}

export async function runProfileSet(ctx: Context, options: ProfileSetOptions): Promise<void> {
  const name = validateProfileName(options.name);
  if (name === SANDBOX_PROFILE) {
    throw new UsageError(
      'the sandbox profile is the embedded local service; it has no URLs to set',
      {
        hint: 'Create a profile of your own instead: petstore profile set NAME --base-url URL',
      },
    );
  }
  if (options.baseUrl === undefined && options.quickstartUrl === undefined) {
    throw new UsageError('profile set needs --base-url and/or --quickstart-url', {
      hint: `Example: petstore profile set ${name} --base-url https://animal-store.example.com/v1`,
    });
  }
  const baseUrl =
    options.baseUrl === undefined ? undefined : checkUrl(ctx, options.baseUrl, '--base-url');
  const quickstartUrl =
    options.quickstartUrl === undefined
      ? undefined
      : checkUrl(ctx, options.quickstartUrl, '--quickstart-url');
  const changes: string[] = [];
  await (
    await ctx.config()
  ).update((data) => {
    const existing = data.profiles[name];
    if (!existing && !isBuiltInProfile(name) && baseUrl === undefined) {
      throw new UsageError(`a new profile needs --base-url`, {
        hint: `Example: petstore profile set ${name} --base-url https://animal-store.example.com/v1`,
      });
    }
    const profile = existing ?? {};
    if (baseUrl !== undefined) {
      if (profile.baseUrl && profile.baseUrl !== baseUrl) {
        changes.push(`base URL changed from ${profile.baseUrl} to ${baseUrl}`);
      }
      profile.baseUrl = baseUrl;
    }
    if (quickstartUrl !== undefined) {
      if (profile.quickstartUrl && profile.quickstartUrl !== quickstartUrl) {
        changes.push(`quickstart URL changed from ${profile.quickstartUrl} to ${quickstartUrl}`);
      }
      profile.quickstartUrl = quickstartUrl;
    }
    data.profiles[name] = profile;
  });
  for (const change of changes) ctx.notice(`Profile ${name}: ${change}.`);
  ctx.notice(`Saved profile ${name}.`);
}

export async function runProfileRemove(ctx: Context, name: string, yes: boolean): Promise<void> {
  if (isBuiltInProfile(name)) {
    throw new UsageError(`"${name}" is built in and cannot be removed`, {
      hint: `To forget its key: petstore auth logout --profile ${name}`,
    });
  }
  const store = await ctx.config();
  const before = await store.read();
  if (!profileExists(before, name)) throw noSuchProfile(name);
  if (!yes) {
    if (!ctx.io.stdinIsTTY || !ctx.io.stderrIsTTY) {
      throw new UsageError(`removing profile ${name} needs confirmation`, {
        hint: `Pass --yes to remove it without asking.`,
      });
    }
    const hasKey = before.profiles[name]?.apiKey !== undefined;
    const question = `Remove profile ${name}${hasKey ? ' and its stored API key' : ''}?`;
    if (!(await confirm(ctx.io, question))) {
      ctx.notice('Nothing removed.');
      return;
    }
  }
  const outcome = { wasActive: false };
  await store.update((data) => {
    if (!Object.hasOwn(data.profiles, name)) throw noSuchProfile(name);
    outcome.wasActive = activeProfile(data) === name;
    data.profiles = Object.fromEntries(
      Object.entries(data.profiles).filter(([profileName]) => profileName !== name),
    );
    if (outcome.wasActive) delete data.activeProfile;
  });
  ctx.notice(`Removed profile ${name}.`);
  if (outcome.wasActive) ctx.notice(`The active profile is now ${DEFAULT_PROFILE}.`);
}

function noSuchProfile(name: string): UsageError {
  return new UsageError(`no profile named "${name}"`, {
    hint: 'See them with: petstore profile list',
  });
}

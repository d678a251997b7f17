import {
  environmentKey,
  maskKey,
  profileNames,
  SANDBOX_PROFILE,
  selectProfile,
} from '../config/profiles.js';
import type { Context } from '../context.js';
import { UsageError } from '../errors.js';
import type { Column } from '../output/render.js';
import { readFirstLine, readHidden } from '../output/prompt.js';
import { baseUrlLabel, describeProfile, keySourceLabel, type ProfileView } from './profile-view.js';

async function selectedProfileName(ctx: Context): Promise<string> {
  const data = await (await ctx.config()).read();
  return selectProfile(ctx.settings, data).name;
}

async function readKey(ctx: Context, profile: string): Promise<string> {
  const key = ctx.io.stdinIsTTY
    ? (await readHidden(ctx.io, `API key for profile ${profile} (input hidden): `)).trim()
    : await readFirstLine(ctx.io.stdin);
  if (key === '') {
    throw new UsageError('no API key was given', {
      hint: 'Type it at the prompt, or pipe it in: printf "%s\\n" "$KEY" | petstore auth login',
    });
  }
  if (/\s/.test(key)) throw new UsageError('an API key cannot contain white space');
  return key;
}

export async function runAuthLogin(ctx: Context, options: { verify: boolean }): Promise<void> {
  const profile = await selectedProfileName(ctx);
  if (profile === SANDBOX_PROFILE) {
    throw new UsageError('the sandbox profile needs no API key', {
      hint: 'Choose the profile to log in to: petstore auth login --profile staging',
    });
  }
  const key = await readKey(ctx, profile);
  if (options.verify) {
    const target = await ctx.target();
    const client = await ctx.clientFor({ ...target, apiKey: key, keySource: 'config' });
    await client.listPets({ limit: 1 });
  }
  const store = await ctx.config();
  let replaced: string | undefined;
  await store.update((data) => {
    const record = (data.profiles[profile] ??= {});
    if (record.apiKey !== undefined && record.apiKey !== key) replaced = maskKey(record.apiKey);
    record.apiKey = key;
  });
  const verified = options.verify ? 'verified and stored' : 'stored (not verified)';
  ctx.notice(`API key ${maskKey(key)} ${verified} for profile ${profile} in ${store.path}.`);
  if (replaced) ctx.notice(`It replaces the previous key ${replaced}.`);
  if (environmentKey(ctx.env)) {
    ctx.notice('PETSTORE_API_KEY is set: while it is, it overrides this stored key.');
  }
}

const AUTH_COLUMNS: Column<ProfileView>[] = [
  { header: 'profile', value: (view) => (view.active ? `${view.name} *` : view.name) },
  { header: 'keySource', value: keySourceLabel },
  { header: 'key', value: (view) => view.key ?? '' },
  { header: 'baseUrl', value: baseUrlLabel },
];

export async function runAuthStatus(ctx: Context): Promise<void> {
  const data = await (await ctx.config()).read();
  const names = ctx.settings.profile
    ? [selectProfile(ctx.settings, data).name]
    : profileNames(data);
  const views = names.map((name) => describeProfile(name, data, ctx.env));
  await ctx.render(views, AUTH_COLUMNS);
  if (environmentKey(ctx.env)) {
    const hidden = views
      .filter((view) => view.overriddenStoredKey)
      .map((view) => `${view.name} (${view.overriddenStoredKey!})`);
    ctx.notice(
      'PETSTORE_API_KEY is set: it overrides the stored key of whichever profile is used' +
        (hidden.length > 0 ? `; stored keys it hides: ${hidden.join(', ')}.` : '.'),
    );
  }
}

export async function runAuthLogout(ctx: Context): Promise<void> {
  const profile = await selectedProfileName(ctx);
  let removed: string | undefined;
  await (
    await ctx.config()
  ).update((data) => {
    const record = data.profiles[profile];
    if (record?.apiKey === undefined) return;
    removed = maskKey(record.apiKey);
    delete record.apiKey;
  });
  ctx.notice(
    removed
      ? `Removed the stored key ${removed} of profile ${profile}.`
      : `Profile ${profile} has no stored key; nothing removed.`,
  );
}

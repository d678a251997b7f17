import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { proxySettingsFromEnv, type ProxySettings } from '../../api/proxy-settings.js';
import { KeyringUnavailableError } from '../../config/keyring.js';
import { CONFIG_FILE_NAME, configDir } from '../../config/paths.js';
import { environmentKey, maskKey, selectProfile, storedProfile } from '../../config/profiles.js';
import type { ConfigData } from '../../config/schema.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { servesEmbeddedSandbox } from '../../context/embedded-sandbox.js';
import { parseServiceUrl } from '../../api/url-policy.js';
import { exposureOf, modeText } from '../../core/private-place.js';
import { maskCredentials, unfindableBecause } from '../../core/redaction/index.js';
import { PetstoreError } from '../../core/errors.js';
import { ExitCode, exitCodeFor } from '../../output/report-error.js';
import { commandLineHint } from '../../output/wording.js';
import { fail, info, ok, warn, type Finding } from './finding.js';

/** What the local checks learned, for the network ones. */
/** Where each URL setting comes from, and how it is named in messages. */
const URL_SETTINGS = {
  'base URL': { flag: '--base-url', variable: 'PETSTORE_BASE_URL', key: 'baseUrl' },
  'quickstart URL': {
    flag: '--quickstart-url',
    variable: 'PETSTORE_QUICKSTART_URL',
    key: 'quickstartUrl',
  },
} as const;

/**
 * One URL setting judged as the client judges it (absolute http(s), no credentials): its line,
 * and the URL when the network checks can use it. Shown with any password masked.
 */
function checkedUrl(
  ctx: RunOutput & RunServices,
  name: keyof typeof URL_SETTINGS,
  value: string | undefined,
  profile: string,
): { url: string | undefined; findings: Finding[] } {
  const { flag, variable, key } = URL_SETTINGS[name];
  const setFix = `petstore profile set ${profile} ${flag} URL`;
  if (value === undefined) {
    return name === 'base URL'
      ? { url: undefined, findings: [fail(name, 'not set', setFix, ExitCode.usage)] }
      : { url: undefined, findings: [info(name, 'not set (message send needs it)')] };
  }
  // The flag wins over the variable: when the variable holds another URL, the flag gave it.
  const override = ctx.settings[key];
  const from =
    override === undefined ? undefined : ctx.env[variable]?.trim() === override ? variable : flag;
  const source = from ?? `profile "${profile}" ${name}`;
  let url: URL;
  try {
    url = parseServiceUrl(value, source);
  } catch (error) {
    const { message } = error as PetstoreError;
    const hint = commandLineHint((error as PetstoreError).hint);
    return {
      url: undefined,
      findings: [fail(name, message, hint ?? `${setFix}, or fix ${source}`, ExitCode.usage)],
    };
  }
  const shown = `${maskCredentials(value)}${from ? ` (from ${from}, not the profile)` : ''}`;
  // The interface's paths are under /v1: a base URL without it answers 404 to every command.
  if (name === 'base URL' && !/\/v1\/?$/.test(url.pathname)) {
    return {
      url: value,
      findings: [
        warn(name, `${shown}: its path does not end with /v1`, `${setFix} (ending with /v1)`),
      ],
    };
  }
  return { url: value, findings: [ok(name, shown)] };
}

export interface LocalFacts {
  profile: string | undefined;
  embedded: boolean;
  baseUrl: string | undefined;
  quickstartUrl: string | undefined;
  proxy: ProxySettings | undefined;
}

const MIN_NODE = [22, 20];

function nodeFinding(): Finding {
  const [major = 0, minor = 0] = process.versions.node.split('.').map(Number);
  const fits = major > MIN_NODE[0]! || (major === MIN_NODE[0] && minor >= MIN_NODE[1]!);
  return fits
    ? ok('node', `Node.js ${process.versions.node}`)
    : fail(
        'node',
        `Node.js ${process.versions.node}`,
        'Install Node.js 22.20 or newer.',
        ExitCode.usage,
      );
}

/** The config file as every command judges it (a file others can change is refused there). */
function modeFinding(path: string): Finding[] {
  const file = statSync(path, { throwIfNoEntry: false });
  if (!file) return [info('config file', `${path} (none yet: nothing configured)`)];
  const modes = `file ${modeText(file.mode)}, folder ${modeText(statSync(dirname(path)).mode)}`;
  const exposure = exposureOf(path, 'it', 'read');
  return exposure
    ? [warn('config file', `${path} (${modes}): ${exposure.message}`, exposure.hint)]
    : [ok('config file', `${path} (${modes})`)];
}

const SOURCES = {
  flag: 'chosen with --profile',
  env: 'chosen with PETSTORE_PROFILE',
  config: 'the active profile (petstore profile use)',
  default: 'the default: no profile chosen',
} as const;

/**
 * A key found: ok, or a warning when it cannot be told from data, so a service echoing it back
 * would print it in clear (every command warns so; the report says it too).
 */
function keyFound(key: string, where: string): Finding {
  const unfindable = unfindableBecause(key);
  return unfindable
    ? warn(
        'key',
        `${maskKey(key)} ${where}: it cannot be told from data (${unfindable}), so it is not masked where a service echoes it`,
        'Use a longer key with a letter in it, if the service issues one.',
      )
    : ok('key', `${maskKey(key)} ${where}`);
}

async function keyFinding(ctx: RunServices, data: ConfigData, profile: string, embedded: boolean) {
  const envKey = environmentKey(ctx.env);
  if (envKey) return keyFound(envKey, 'from PETSTORE_API_KEY');
  if (embedded) return ok('key', 'made by the embedded sandbox for each run');
  const stored = storedProfile(data, profile);
  if (stored.keyStore === 'keyring') {
    try {
      const key = await ctx.keyring().get(profile);
      return key
        ? keyFound(key, 'in the OS keyring, which answers')
        : fail(
            'key',
            'the OS keyring holds no key for it',
            `petstore auth login --profile ${profile}`,
            ExitCode.auth,
          );
    } catch (error) {
      const why = error instanceof KeyringUnavailableError ? error.reason : String(error);
      return fail(
        'key',
        `in the OS keyring, which cannot be used: ${why}`,
        `Unlock or start the keyring, set PETSTORE_API_KEY, or: petstore auth login --profile ${profile} --insecure-storage`,
        ExitCode.auth,
      );
    }
  }
  if (stored.apiKey) return keyFound(stored.apiKey, 'in the config file');
  return fail(
    'key',
    'none',
    `petstore auth login --profile ${profile} (or set PETSTORE_API_KEY)`,
    ExitCode.auth,
  );
}

function proxyFindings(ctx: RunOutput & RunServices): {
  findings: Finding[];
  proxy: ProxySettings | undefined;
} {
  try {
    const proxy = proxySettingsFromEnv(ctx.env);
    const used = [
      proxy.http && `HTTP_PROXY ${maskCredentials(proxy.http)}`,
      proxy.https && `HTTPS_PROXY ${maskCredentials(proxy.https)}`,
      proxy.noProxy && `NO_PROXY ${proxy.noProxy}`,
    ].filter(Boolean);
    return {
      findings: [info('proxy', used.length ? used.join('; ') : 'none (direct connections)')],
      proxy,
    };
  } catch (error) {
    const { message } = error as PetstoreError;
    const hint = commandLineHint((error as PetstoreError).hint);
    return { findings: [fail('proxy', message, hint ?? '', exitCodeFor(error))], proxy: undefined };
  }
}

/** Node, the config file, the profile and why, the key and where it lives, the proxies. */
export async function localChecks(
  ctx: RunOutput & RunServices,
): Promise<{ findings: Finding[]; facts: LocalFacts }> {
  const findings: Finding[] = [nodeFinding()];
  const path = join(configDir(ctx.env), CONFIG_FILE_NAME);
  const facts: LocalFacts = {
    profile: undefined,
    embedded: false,
    baseUrl: undefined,
    quickstartUrl: undefined,
    proxy: undefined,
  };
  let data: ConfigData;
  try {
    data = await (await ctx.config()).read();
    findings.push(...modeFinding(path));
  } catch (error) {
    const { message } = error as PetstoreError;
    const hint = commandLineHint((error as PetstoreError).hint);
    findings.push(
      fail(
        'config file',
        message,
        hint ?? `Move ${path} away to start afresh.`,
        exitCodeFor(error),
      ),
    );
    return { findings, facts };
  }
  let selection;
  try {
    selection = selectProfile(ctx.settings.profile, data);
  } catch (error) {
    const { message } = error as PetstoreError;
    const hint = commandLineHint((error as PetstoreError).hint);
    findings.push(fail('profile', message, hint ?? '', exitCodeFor(error)));
    return { findings, facts };
  }
  const stored = storedProfile(data, selection.name);
  facts.profile = selection.name;
  facts.embedded = servesEmbeddedSandbox(selection.name, ctx.settings);
  facts.baseUrl = ctx.settings.baseUrl ?? stored.baseUrl;
  facts.quickstartUrl = ctx.settings.quickstartUrl ?? stored.quickstartUrl;
  findings.push(ok('profile', `${selection.name}: ${SOURCES[selection.source]}`));
  if (facts.embedded) findings.push(ok('base URL', 'the embedded sandbox (no network)'));
  else {
    const base = checkedUrl(ctx, 'base URL', facts.baseUrl, selection.name);
    facts.baseUrl = base.url;
    findings.push(...base.findings);
    const quickstart = checkedUrl(ctx, 'quickstart URL', facts.quickstartUrl, selection.name);
    facts.quickstartUrl = quickstart.url;
    findings.push(...quickstart.findings);
  }
  findings.push(await keyFinding(ctx, data, selection.name, facts.embedded));
  const proxies = proxyFindings(ctx);
  findings.push(...proxies.findings);
  facts.proxy = proxies.proxy;
  return { findings, facts };
}

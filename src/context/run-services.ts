import { runHistory } from './write-history.js';
import type { DeprecationNotice, PetstoreClient } from '../api/client.js';
import { proxyPasswords, proxySettingsFromEnv } from '../api/proxy-settings.js';
import { parseServiceUrl } from '../api/url-policy.js';
import { helperKeyring, noKeyring, rememberingKeyring } from '../config/keyring.js';
import { configDir } from '../config/paths.js';
import { selectProfile } from '../config/profiles.js';
import type { ConfigStore } from '../config/store.js';
import { apiKeyProblem } from '../core/api-key.js';
import { MissingCredentialError, UsageError } from '../core/errors.js';
import { unfindableBecause } from '../core/redaction/index.js';
import { sanitizeLine } from '../core/sanitize.js';
import { TraceHeaders, traceOfEnv } from '../core/trace-context.js';
import type { ContextDeps, Context, RunOutput, RunServices } from './parts.js';
import { servesEmbeddedSandbox } from './embedded-sandbox.js';
import type { Target } from './target.js';
import { missingKeyProblem, missingUrlProblem, unusableKeyError } from './target.js';

export const USER_AGENT = `petstore-cli/${__PETSTORE_VERSION__} node/${process.versions.node} ${process.platform}`;

function deprecationWarning(notice: DeprecationNotice): string {
  const sunset = notice.sunset ? `; it will be removed on ${notice.sunset}` : '';
  return `${notice.method} ${sanitizeLine(notice.path)} is deprecated by the service${sanitizeLine(sunset)}`;
}

/** The error for a target without a key: without a URL too, the URL is what is missing. */
function noCredential(resolved: Target): Error {
  // A URL that could never be used is said first: a key would not make it work.
  if (resolved.baseUrl !== undefined) parseServiceUrl(resolved.baseUrl, 'the base URL');
  if (resolved.quickstartUrl !== undefined) {
    parseServiceUrl(resolved.quickstartUrl, 'the quickstart URL');
  }
  const noUrl = resolved.baseUrl === undefined && resolved.quickstartUrl === undefined;
  const { message, hint } = noUrl ? missingUrlProblem(resolved) : missingKeyProblem(resolved);
  return noUrl ? new UsageError(message, { hint }) : new MissingCredentialError(message, { hint });
}

/**
 * The run's services, each made on first use. `cleanups` receives what they open (clients,
 * an embedded sandbox), released when the run closes; `self` is the whole context, which a
 * target's resolution is given.
 */
export function createRunServices(
  deps: ContextDeps,
  output: Pick<RunOutput, 'warn' | 'warnDeprecated'>,
  cleanups: (() => Promise<void>)[],
  self: () => Context,
): RunServices {
  const { io, env, settings, redactor } = deps;
  let target: Promise<Target> | undefined;
  let client: Promise<PetstoreClient> | undefined;
  let config: Promise<ConfigStore> | undefined;
  let keyring = deps.keyring && rememberingKeyring(deps.keyring);
  const history = runHistory(env, redactor, (message) => output.warn(message), cleanups);
  // One trace for the run's requests, whichever clients send them (TRACEPARENT, else new).
  let trace: TraceHeaders | undefined;
  const services: RunServices = {
    env,
    selfCommand: deps.selfCommand,
    target() {
      target ??= deps.resolveTarget(self()).then((resolved) => {
        if (resolved.close) cleanups.push(resolved.close);
        return resolved;
      });
      return target;
    },
    client() {
      client ??= services.target().then((resolved) => services.clientFor(resolved));
      return client;
    },
    async checkTarget() {
      const data = await (await services.config()).read();
      const { name } = selectProfile(settings.profile, data);
      // The embedded sandbox needs nothing set up, and is started only once needed.
      if (servesEmbeddedSandbox(name, settings)) return;
      const resolved = await services.target();
      if (resolved.apiKey === undefined) throw noCredential(resolved);
    },
    async clientFor(resolved, http = {}, { warnDeprecations = true } = {}) {
      const { apiKey } = resolved;
      if (apiKey === undefined) throw noCredential(resolved);
      redactor.add(apiKey);
      // A service may echo the key base64-encoded (as in a Basic credential): masked too.
      for (const encoding of ['base64', 'base64url'] as const) {
        redactor.add(Buffer.from(apiKey).toString(encoding), { hidden: true });
      }
      const keyProblem = apiKeyProblem(apiKey);
      if (keyProblem) throw unusableKeyError(resolved, keyProblem);
      const unfindable = unfindableBecause(apiKey);
      if (unfindable) {
        output.warn(
          `the API key cannot be told from data (${unfindable}), so it is not masked where a service echoes it back`,
        );
      }
      const proxy = proxySettingsFromEnv(env);
      // A proxy's password is a secret of the run like the key: masked wherever it shows.
      for (const secret of proxyPasswords(proxy)) redactor.add(secret, { hidden: true });
      const created = await deps.createClient(
        { ...resolved, apiKey },
        {
          ...settings.http,
          ...http,
          userAgent: USER_AGENT,
          trace: (trace ??= new TraceHeaders(traceOfEnv(env))),
          transport: deps.transport,
          endsWithProcess: deps.endsWithProcess,
          proxy,
          redact: (text) => redactor.redact(text),
          onWrite: history.onWriteTo(resolved),
          log: settings.verbose ? (line) => io.stderr.write(`${sanitizeLine(line)}\n`) : undefined,
          // A command that checks the notices itself (smoke) reports them as its results.
          onDeprecation: warnDeprecations
            ? (notice) => output.warnDeprecated(deprecationWarning(notice))
            : undefined,
        },
      );
      cleanups.unshift(() => created.close());
      return created;
    },
    config() {
      config ??= import('../config/store.js').then(
        ({ ConfigStore }) =>
          new ConfigStore(
            configDir(env),
            (message) => output.warn(message),
            (keys, passwords) => {
              keys.forEach((key) => redactor.add(key));
              passwords.forEach((password) => redactor.add(password, { hidden: true }));
            },
          ),
      );
      return config;
    },
    keyring() {
      keyring ??= rememberingKeyring(
        deps.selfCommand ? helperKeyring(deps.selfCommand) : noKeyring(),
      );
      return keyring;
    },
    recordWritesAs: (given) => history.recordWritesAs(given),
    recordRefusal(refusal) {
      // No target, no service it was meant for: nothing to record.
      void services.target().then(
        (resolved) => history.recordRefusal(resolved, refusal),
        () => undefined,
      );
    },
  };
  return services;
}

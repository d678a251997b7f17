import { credentialSecrets } from '../core/redaction/index.js';
import { URL_VARIABLES } from './environment-secrets.js';
import type { Context, ContextDeps } from './parts.js';
import { createRunOutput } from './run-output.js';
import { createRunServices } from './run-services.js';

export type { Keyring } from '../config/keyring.js';
export type {
  Context,
  ContextDeps,
  DataView,
  LineRows,
  RunOutput,
  RunServices,
  RunState,
} from './parts.js';
export { USER_AGENT } from './run-services.js';

/** Makes the run's context: its output, services and state (see each part's builder). */
export function createContext(deps: ContextDeps): Context {
  const { env, settings, redactor } = deps;
  const effect = { tookEffect: false };
  protectRunSecrets(deps);
  const cleanups: (() => Promise<void>)[] = [];
  const output = createRunOutput(deps, effect);
  const services = createRunServices(deps, output, cleanups, () => ctx);
  const ctx: Context = {
    ...output,
    ...services,
    env,
    settings,
    tookEffect() {
      effect.tookEffect = true;
    },
    protectSecret(secret, options) {
      redactor.add(secret, options);
    },
    redact: (text) => redactor.redact(text),
    async close() {
      for (const cleanup of cleanups.splice(0)) await cleanup();
    },
  };
  return ctx;
}

/**
 * Before anything can say a URL or proxy value is wrong: no message may show its password,
 * whatever the value's shape, nor the key the environment gives.
 */
function protectRunSecrets({ env, settings, redactor }: ContextDeps): void {
  redactor.add(env.PETSTORE_API_KEY?.trim());
  const urls = [
    ...URL_VARIABLES.map((name) => env[name]),
    settings.baseUrl,
    settings.quickstartUrl,
  ];
  for (const url of urls) {
    for (const secret of credentialSecrets(url ?? '')) redactor.add(secret, { hidden: true });
  }
}

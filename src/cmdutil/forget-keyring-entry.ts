import { KeyringUnavailableError } from '../config/keyring.js';
import type { RunOutput, RunServices } from '../context/context.js';

/** Removes a profile's keyring entry, warning (not failing) when the keyring cannot be used. */
export async function forgetKeyringEntry(
  ctx: RunOutput & RunServices,
  profile: string,
  options: { quiet?: boolean } = {},
): Promise<boolean> {
  try {
    return await ctx.keyring().delete(profile);
  } catch (error) {
    if (!(error instanceof KeyringUnavailableError)) throw error;
    if (options.quiet) return false;
    ctx.warn(
      `could not remove the key of profile ${profile} from the OS keyring (${error.reason}); remove the entry "petstore-cli" / "${profile}" with the keyring's own tool.`,
    );
    return false;
  }
}

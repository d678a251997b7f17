/**
 * Keeping secrets out of what petstore prints: the one entry point.
 *
 * What is masked: every API key the run learns of (flag, environment, config, keyring, a key
 * typed at a prompt), proxy and URL passwords and tokens, wherever they would show: stdout and
 * stderr (guardedIO, the last net), HTTP responses as they arrive (scrubResponse), the
 * strings of decoded JSON (scrubStrings), credential headers in logs and --dry-run
 * (redactHeader), URLs in messages (maskCredentials). A secret is found whole in any letter
 * case, in a transport's encodings (hex, base64, base64url, percent-encoding, JSON and Unicode
 * escapes), and any part of it long enough not to be ordinary text (secret-forms.ts), in time
 * linear in the text (search.ts). A key shows as `****` and its last characters (maskKey), a
 * password or a credential header's value as `****` alone (`Bearer ****`). Decision 0012.
 *
 * What is not: a key shorter than 8 characters or without a letter (unfindableBecause): it
 * cannot be told from data (a key "1234" is in ids), and masking it would corrupt what a
 * service sends; petstore never prints such a key itself and warns that an echo of it is not
 * masked. A service that holds a key can always show it some other way (reversed, spaced
 * out, drawn by a terminal's cursor moves): the net is for echoes, not for a hostile service.
 * Secrets the run was never told of cannot be found. Files petstore writes (a journal, a
 * report) are masked by `redact` before writing.
 */
export { MASK, maskKey, redactHeader } from './mask.js';
export { MIN_FINDABLE_SECRET, SecretRedactor, unfindableBecause } from './redactor.js';
export { scrubResponse, scrubStrings, type Redact } from './scrub.js';
export { credentialSecrets, maskCredentials } from './url-credentials.js';

import { SecretRedactor } from './redactor.js';
import type { Redact } from './scrub.js';

/** A redaction of these secrets alone (a client made without the run's redactor). */
export function redactionOf(...secrets: string[]): Redact {
  const redactor = new SecretRedactor();
  for (const secret of secrets) redactor.add(secret);
  return (text) => redactor.redact(text);
}

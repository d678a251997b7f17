import type { IO, Output } from './io.js';
import type { SecretRedactor } from './redaction/redactor.js';
import { sanitizeText } from './sanitize.js';

function redacting(output: Output, redactor: SecretRedactor): Output {
  // A masked text is not the one given: only all of it or none of it maps back.
  const mapBack = (text: string, masked: string, written: number) =>
    masked === text ? written : written === Buffer.byteLength(masked) ? Buffer.byteLength(text) : 0;
  return {
    write: (text: string) => {
      const masked = redactor.redact(text);
      return mapBack(text, masked, output.write(masked));
    },
    writeSettled: async (text: string) => {
      const masked = redactor.redact(text);
      return mapBack(text, masked, await output.writeSettled(masked));
    },
  };
}

/**
 * The last net over what a run writes, whatever wrote it: every secret the redactor knows is
 * masked on stdout and stderr, and stderr (messages, never data) carries no character a
 * terminal would act on or hide but line feeds and tabs. Each source sanitises and masks its
 * own text already; this catches what one missed (a stack trace, a path, a future writer).
 */
export function guardedIO(io: IO, redactor: SecretRedactor): IO {
  // Copied by descriptor, not spread: a spread would read `stdin` and `stderr`, which the
  // process's IO makes only when a command uses them.
  let stderr: Output | undefined;
  return Object.defineProperties({} as IO, {
    ...Object.getOwnPropertyDescriptors(io),
    stdout: { value: redacting(io.stdout, redactor), enumerable: true },
    // Read when first used, as the process's IO makes its stderr stream.
    stderr: {
      get: () => (stderr ??= redacting(sanitizing(io.stderr), redactor)),
      enumerable: true,
    },
  });
}

function sanitizing(output: Output): Output {
  return {
    write: (text: string) => output.write(sanitizeText(text)),
    writeSettled: (text: string) => output.writeSettled(sanitizeText(text)),
  };
}

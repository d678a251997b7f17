import { lookup } from 'node:dns/promises';
import { connect as connectTcp } from 'node:net';
import { checkServerIdentity, connect as connectTls, type PeerCertificate } from 'node:tls';

/**
 * The layers under an HTTP request, one at a time, for `petstore doctor`: each says what it
 * found, or why it failed, in words a person can act on.
 */

export type Probe<T> = { ok: true; value: T } | { ok: false; code: string; reason: string };

function failed(error: unknown): { ok: false; code: string; reason: string } {
  const code = (error as NodeJS.ErrnoException).code ?? 'error';
  const reason = error instanceof Error ? error.message : String(error);
  return { ok: false, code, reason };
}

/** The address the host resolves to. */
export async function probeDns(host: string): Promise<Probe<string>> {
  try {
    const { address } = await lookup(host);
    return { ok: true, value: address };
  } catch (error) {
    return failed(error);
  }
}

/** Whether a TCP connection opens, and how long it took (ms). */
export function probeTcp(host: string, port: number, timeoutMs: number): Promise<Probe<number>> {
  const started = performance.now();
  return new Promise((resolve) => {
    const socket = connectTcp({ host, port });
    const done = (result: Probe<number>) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () =>
      done({ ok: false, code: 'ETIMEDOUT', reason: `no answer within ${timeoutMs} ms` }),
    );
    socket.once('connect', () =>
      done({ ok: true, value: Math.round(performance.now() - started) }),
    );
    socket.once('error', (error) => done(failed(error)));
  });
}

export interface TlsFacts {
  subject: string;
  issuer: string;
  /** Whole days until the certificate expires; negative once it has. */
  daysLeft: number;
  /** When it expires (or expired), as an ISO date and time. */
  expiresAt: string;
  hostnameMatches: boolean;
  /** Why the system does not trust it (self-signed, expired, unknown issuer), if it does not. */
  untrusted: string | undefined;
}

function name(fields: PeerCertificate['subject'] | undefined): string {
  if (!fields) return '(none)';
  return Object.entries(fields)
    .map(([key, value]) => `${key}=${Array.isArray(value) ? value.join('+') : String(value)}`)
    .join(', ');
}

/** Node's verification codes, in words (the code kept for a search). */
const UNTRUSTED: Record<string, string> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: 'self-signed certificate',
  SELF_SIGNED_CERT_IN_CHAIN: 'self-signed certificate in the chain',
  CERT_HAS_EXPIRED: 'expired',
  CERT_NOT_YET_VALID: 'not valid yet',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: 'issued by a CA this machine does not know',
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: 'issued by a CA this machine does not know',
};

function hostMismatchOnly(error: Error | string | null): boolean {
  const code = error instanceof Error ? (error as NodeJS.ErrnoException).code : error;
  return code === 'ERR_TLS_CERT_ALTNAME_INVALID';
}

function untrustedBecause(error: Error | string | null): string {
  const code =
    error instanceof Error
      ? ((error as NodeJS.ErrnoException).code ?? error.message)
      : (error ?? 'not trusted');
  return UNTRUSTED[code] ? `${UNTRUSTED[code]} (${code})` : code;
}

/**
 * The certificate the server shows for `servername`, read without trusting it (so a bad one
 * can be described), then judged as a client judges it.
 */
export function probeTls(
  host: string,
  port: number,
  servername: string,
  timeoutMs: number,
): Promise<Probe<TlsFacts>> {
  return new Promise((resolve) => {
    const socket = connectTls({
      host,
      port,
      servername: /^[\d.]+$|:/.test(servername) ? undefined : servername,
      rejectUnauthorized: false,
      ALPNProtocols: ['http/1.1'],
    });
    const done = (result: Probe<TlsFacts>) => {
      socket.destroy();
      resolve(result);
    };
    socket.setTimeout(timeoutMs, () =>
      done({ ok: false, code: 'ETIMEDOUT', reason: `no TLS handshake within ${timeoutMs} ms` }),
    );
    socket.once('secureConnect', () => {
      const cert = socket.getPeerCertificate();
      const validTo = Date.parse(cert.valid_to);
      const authorizationError = socket.authorizationError as Error | string | null;
      done({
        ok: true,
        value: {
          subject: name(cert.subject),
          issuer: name(cert.issuer),
          daysLeft: Math.floor((validTo - Date.now()) / 86_400_000),
          expiresAt: Number.isNaN(validTo)
            ? 'an unreadable date'
            : new Date(validTo).toISOString().replace('.000Z', 'Z'),
          hostnameMatches: checkServerIdentity(servername, cert) === undefined,
          // A host name mismatch is told by hostnameMatches, in words: not a trust failure too.
          untrusted:
            socket.authorized || hostMismatchOnly(authorizationError)
              ? undefined
              : untrustedBecause(authorizationError),
        },
      });
    });
    socket.once('error', (error) => done(failed(error)));
  });
}

import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Certificate {
  /** Paths of the PEM files (for NODE_EXTRA_CA_CERTS, or a server started elsewhere). */
  certFile: string;
  keyFile: string;
  /** Their contents, for a node:https or node:http2 server in the test. */
  cert: Buffer;
  key: Buffer;
}

/**
 * A self-signed P-256 certificate for CN=127.0.0.1 made with openssl, valid for `days` from now,
 * or (`expired`) one that expired a day ago. `altNames` as openssl's subjectAltName value.
 */
export function selfSignedCertificate(
  options: { days?: number; altNames?: string; expired?: boolean } = {},
): Certificate {
  const folder = mkdtempSync(join(tmpdir(), 'petstore-cert-'));
  const keyFile = join(folder, 'key.pem');
  const certFile = join(folder, 'cert.pem');
  const altNames = `subjectAltName=${options.altNames ?? 'IP:127.0.0.1'}`;
  const newKey = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  if (options.expired) {
    // OpenSSL 3.0's `req` cannot date a certificate in the past; `x509 -days -1` can.
    const request = join(folder, 'request.csr');
    const extensions = join(folder, 'extensions.cnf');
    writeFileSync(extensions, `${altNames}\n`);
    execFileSync(
      'openssl',
      ['req', '-new', ...newKey, '-keyout', keyFile, '-out', request, '-subj', '/CN=127.0.0.1'],
      { stdio: 'ignore' },
    );
    execFileSync(
      'openssl',
      [
        'x509',
        '-req',
        '-in',
        request,
        '-signkey',
        keyFile,
        '-days',
        '-1',
        '-extfile',
        extensions,
        '-out',
        certFile,
      ],
      { stdio: 'ignore' },
    );
  } else {
    execFileSync(
      'openssl',
      [
        ...['req', '-x509', ...newKey, '-keyout', keyFile, '-out', certFile],
        ...['-days', String(options.days ?? 1), '-subj', '/CN=127.0.0.1', '-addext', altNames],
      ],
      { stdio: 'ignore' },
    );
  }
  return { certFile, keyFile, cert: readFileSync(certFile), key: readFileSync(keyFile) };
}

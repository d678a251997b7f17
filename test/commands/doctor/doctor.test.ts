import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runDoctor } from '../../../src/commands/doctor/doctor.js';
import { DiagnosisFailedError } from '../../../src/core/errors.js';
import { useConfigHome } from '../../helpers/config-home.js';
import { sandboxService } from '../../helpers/sandbox-service.js';
import { verbContext } from '../../helpers/verb-context.js';
import { selfSignedCertificate, type Certificate } from '../../helpers/certificate.js';
import { MemoryKeyring } from '../../helpers/fake-keyring.js';
import { sendJson, startTestServer, type TestServer } from '../../helpers/test-server.js';

const cli = useConfigHome();
const servers: { close: () => unknown }[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});

interface Finding {
  status: string;
  check: string;
  detail: string;
  fix?: string;
}

async function doctor(args: string[] = [], options: Parameters<typeof cli.run>[1] = {}) {
  const result = await cli.run(['doctor', '--json', ...args], { tty: false, ...options });
  const findings = JSON.parse(result.out) as Finding[];
  const failed = findings.filter((finding) => finding.status === 'fail');
  return { ...result, findings, failed };
}

describe('petstore doctor', () => {
  it('on a fresh machine (the sandbox) finds nothing wrong: exit 0', async () => {
    const result = await doctor();
    expect(result.code, result.err).toBe(0);
    expect(result.failed).toEqual([]);
    const checks = result.findings.map((finding) => finding.check);
    expect(checks).toEqual(
      expect.arrayContaining([
        'node',
        'config file',
        'profile',
        'key',
        'proxy',
        'HTTP',
        'key accepted',
      ]),
    );
    expect(result.findings.find((finding) => finding.check === 'profile')?.detail).toBe(
      'sandbox: the default: no profile chosen',
    );
  });

  it('a key the service refuses: the key check fails, exit 3', async () => {
    const server: TestServer = await startTestServer((_req, res) =>
      sendJson(res, 401, '{"code":"unauthorized","message":"API key invalid","status":401}'),
    );
    servers.push(server);
    const result = await doctor([], {
      env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_refused_key' },
    });
    expect(result.code).toBe(3);
    expect(result.failed.map((finding) => finding.check)).toEqual(['key accepted']);
    expect(result.out + result.err).not.toContain('sk_test_refused_key');
  });

  it('a key too short to tell from data: a warning that it is not masked where echoed', async () => {
    const result = await doctor(['--base-url', 'https://animal-store.invalid/v1'], {
      env: { PETSTORE_API_KEY: 'abc' },
    });
    const key = result.findings.find((finding) => finding.check === 'key');
    expect(key?.status).toBe('warn');
    expect(key?.detail).toContain('not masked where a service echoes it');
    expect(result.out).not.toContain('abc');
  });

  it('a host that does not resolve: DNS fails, exit 7, and nothing past it is tried', async () => {
    const result = await doctor([], {
      env: {
        PETSTORE_BASE_URL: 'https://animal-store.invalid/v1',
        PETSTORE_API_KEY: 'sk_test_dns_key',
      },
    });
    expect(result.code).toBe(7);
    expect(result.failed.map((finding) => finding.check)).toEqual(['base URL: DNS']);
    // Where the URL came from: not the sandbox profile that the profile line names.
    expect(result.findings.find((finding) => finding.check === 'base URL')?.detail).toBe(
      'https://animal-store.invalid/v1 (from PETSTORE_BASE_URL, not the profile)',
    );
    const flagged = await doctor(['--base-url', 'https://flag.invalid/v1'], {
      env: { PETSTORE_BASE_URL: 'https://env.invalid/v1', PETSTORE_API_KEY: 'sk_test_dns_key' },
    });
    expect(flagged.findings.find((finding) => finding.check === 'base URL')?.detail).toBe(
      'https://flag.invalid/v1 (from --base-url, not the profile)',
    );
  });

  /** A node:https server on 127.0.0.1 with the certificate; its base URL on `host`. */
  async function tlsServer(cert: Certificate, host = '127.0.0.1'): Promise<string> {
    const server = createServer({ key: cert.key, cert: cert.cert }, (_req, res) => res.end('[]'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    servers.push({ close: () => new Promise((resolve) => server.close(resolve)) });
    return `https://${host}:${(server.address() as AddressInfo).port}/v1`;
  }

  it('a self-signed certificate: TLS fails naming it, with its subject and days left, exit 7', async () => {
    const result = await doctor([], {
      env: {
        PETSTORE_BASE_URL: await tlsServer(selfSignedCertificate({ days: 30 })),
        PETSTORE_API_KEY: 'sk_test_tls_key',
      },
    });
    expect(result.code).toBe(7);
    const tls = result.failed.find((finding) => finding.check === 'base URL: TLS');
    expect(tls?.detail).toMatch(
      /certificate not trusted: self-signed certificate \(DEPTH_ZERO_SELF_SIGNED_CERT\); subject CN=127\.0\.0\.1; issuer CN=127\.0\.0\.1; (29|30) days left \(until \d{4}-\d\d-\d\dT[\d:]+Z\)/,
    );
    expect(tls?.fix).toMatch(/NODE_EXTRA_CA_CERTS/);
  });

  it('an expired certificate: TLS fails saying it expired and when, exit 7', async () => {
    const result = await doctor([], {
      env: {
        PETSTORE_BASE_URL: await tlsServer(selfSignedCertificate({ expired: true })),
        PETSTORE_API_KEY: 'sk_test_tls_key',
      },
    });
    expect(result.code).toBe(7);
    const tls = result.failed.find((finding) => finding.check === 'base URL: TLS');
    expect(tls?.detail).toMatch(
      /^certificate expired; subject CN=127\.0\.0\.1; issuer CN=127\.0\.0\.1; expired \d{4}-\d\d-\d\dT[\d:]+Z$/,
    );
    expect(Date.parse(/expired (\S+)$/.exec(tls!.detail)![1]!)).toBeLessThan(Date.now());
    expect(tls?.fix).toMatch(/renewed/);
  });

  it('a certificate for another host: TLS fails naming the host asked for, exit 7', async () => {
    const result = await doctor([], {
      env: {
        // "localhost" resolves to 127.0.0.1, which the certificate is for; "localhost" it is not.
        PETSTORE_BASE_URL: await tlsServer(selfSignedCertificate({ days: 30 }), 'localhost'),
        PETSTORE_API_KEY: 'sk_test_tls_key',
      },
    });
    expect(result.code).toBe(7);
    const tls = result.failed.find((finding) => finding.check === 'base URL: TLS');
    expect(tls?.detail).toMatch(/^certificate not trusted: /);
    expect(`${tls?.detail} ${tls?.fix}`).toMatch(/localhost/);
  });

  it('an unreachable proxy: the connection to it fails, named, exit 7', async () => {
    const result = await doctor([], {
      env: {
        PETSTORE_BASE_URL: 'https://animal-store.test/v1',
        PETSTORE_API_KEY: 'sk_test_proxy_key',
        HTTPS_PROXY: 'http://user:Secret99@127.0.0.1:9',
      },
    });
    expect(result.code).toBe(7);
    const failed = result.failed[0]!;
    expect(failed.check).toBe('base URL: TCP');
    expect(failed.detail).toContain('(the proxy http://****@127.0.0.1:9/)');
    expect(result.out + result.err).not.toContain('Secret99');
  });

  it('a key in an OS keyring that does not answer: the key check fails, exit 3', async () => {
    // A service that answers, so the report goes on to the read that needs the key again.
    const service = await startTestServer((_req, res) => sendJson(res, 200, '[]'));
    servers.push(service);
    mkdirSync(join(cli.home, 'cfg'), { recursive: true, mode: 0o700 });
    writeFileSync(
      cli.configFile,
      JSON.stringify({
        schemaVersion: 1,
        activeProfile: 'staging',
        profiles: { staging: { baseUrl: `${service.url}/v1`, keyStore: 'keyring' } },
      }),
      { mode: 0o600 },
    );
    const keyring = new MemoryKeyring();
    keyring.unavailable = 'no answer within 2.5 s';
    const result = await doctor([], { keyring });
    expect(result.code).toBe(3);
    const key = result.failed.find((finding) => finding.check === 'key');
    expect(key?.detail).toBe('in the OS keyring, which cannot be used: no answer within 2.5 s');
    expect(key?.fix).toContain('--insecure-storage');
    // Asked once: a keyring that does not answer costs its deadline once per run.
    expect(keyring.calls).toEqual(['get staging']);
  });

  it.each([
    ['an HTML page (a login portal)', 'text/html', '<html><body>Sign in</body></html>'],
    ['JSON of another shape', 'application/json', '{"not":"a list"}'],
    ['a list of something else', 'application/json', '[{"id":"x"}]'],
  ])(
    '%s answering GET /pets: HTTP fails, exit 6, never "key accepted"',
    async (_what, type, body) => {
      const server = await startTestServer((_req, res) => {
        res.writeHead(200, { 'content-type': type });
        res.end(body);
      });
      servers.push(server);
      const result = await doctor([], {
        env: { PETSTORE_BASE_URL: `${server.url}/v1`, PETSTORE_API_KEY: 'sk_test_portal_key' },
      });
      expect(result.code).toBe(6);
      expect(result.failed.map((finding) => finding.check)).toEqual(['HTTP']);
      expect(result.findings.some((finding) => finding.check === 'key accepted')).toBe(false);
      expect(result.failed[0]!.fix).toMatch(/base URL/);
    },
  );

  it.each([
    ['not a url', 'is not a valid URL'],
    ['http://[::1', 'is not a valid URL'],
    ['ftp://files.petstore.test/v1', 'must be an http or https URL'],
    ['https://ops:Hunter2secret@api.petstore.test/v1', 'must not contain credentials'],
    // A token alone (no ":") is a secret too, also in a URL that does not parse.
    ['http://Hunter2secret@[::1', 'is not a valid URL'],
  ])(
    'a base URL of %j: the base URL fails, exit 2, a JSON report, nothing reached',
    async (url, message) => {
      const result = await doctor(['--base-url', url], {
        env: { PETSTORE_API_KEY: 'sk_test_url_key' },
      });
      expect(result.code).toBe(2);
      expect(result.failed.map((finding) => finding.check)).toEqual(['base URL']);
      expect(result.failed[0]!.detail).toContain(message);
      expect(result.findings.some((finding) => finding.check.startsWith('base URL: '))).toBe(false);
      expect(result.out + result.err).not.toContain('Hunter2secret');
    },
  );

  it('a quickstart URL that does not parse: its line fails, exit 2', async () => {
    const result = await doctor(['--base-url', 'https://animal-store.invalid/v1'], {
      env: { PETSTORE_API_KEY: 'sk_test_url_key', PETSTORE_QUICKSTART_URL: 'http://[bad' },
    });
    expect(result.code).toBe(2);
    expect(result.failed.map((finding) => finding.check)).toContain('quickstart URL');
  });

  it('reads once, not retried, within --timeout; no Date header is said; no /v1 is a warning', async () => {
    let hung = 0;
    const hanging = await startTestServer(() => {
      hung++; // never answers
    });
    servers.push(hanging);
    const slow = await doctor(['--timeout', '1'], {
      env: { PETSTORE_BASE_URL: `${hanging.url}/v1`, PETSTORE_API_KEY: 'sk_test_slow_key' },
    });
    expect(slow.code).toBe(7);
    expect(hung).toBe(1);
    const undated = await startTestServer((_req, res) => {
      res.sendDate = false;
      sendJson(res, 200, '[]');
    });
    servers.push(undated);
    const result = await doctor([], {
      env: { PETSTORE_BASE_URL: undated.url, PETSTORE_API_KEY: 'sk_test_date_key' },
    });
    expect(result.code).toBe(0);
    const line = (check: string) => result.findings.find((finding) => finding.check === check);
    expect(line('clock')?.status).toBe('info');
    expect(line('clock')?.detail).toContain('no Date header');
    expect(line('base URL')?.status).toBe('warn');
    expect(line('base URL')?.detail).toContain('does not end with /v1');
  });
});

describe('runDoctor, run with the test context', () => {
  it('reports each check, and passes when the service answers as the interface says', async () => {
    const { env } = await sandboxService();
    const { ctx, io } = verbContext({ env, raw: { output: 'json' } });
    await runDoctor(ctx);
    const findings = JSON.parse(io.out()) as { check: string; status: string }[];
    expect(findings.find((finding) => finding.check === 'HTTP')?.status).toBe('ok');
    expect(findings.filter((finding) => finding.status === 'fail')).toEqual([]);
  });

  it('a refused key fails the run with the auth exit code and says how to fix it', async () => {
    const { env } = await sandboxService();
    const { ctx, io } = verbContext({
      env: { ...env, PETSTORE_API_KEY: 'sk_refused_by_sandbox' },
      raw: { output: 'json' },
    });
    const failure = await runDoctor(ctx).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DiagnosisFailedError);
    expect((failure as DiagnosisFailedError).exitCode).toBe(3);
    const findings = JSON.parse(io.out()) as { check: string; status: string }[];
    expect(findings.find((finding) => finding.check === 'key accepted')).toMatchObject({
      status: 'fail',
    });
  });
});

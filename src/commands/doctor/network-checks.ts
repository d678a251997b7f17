import { parseHttpDate } from '../../core/http-date.js';
import { probeDns, probeTcp, probeTls } from '../../api/probe.js';
import { maskCredentials } from '../../core/redaction/index.js';
import { isLoopbackHost } from '../../api/url-policy.js';
import type { RunOutput, RunServices } from '../../context/context.js';
import { PetstoreError } from '../../core/errors.js';
import { ExitCode, exitCodeFor } from '../../output/report-error.js';
import { commandLineHint } from '../../output/wording.js';
import { fail, info, ok, warn, type Finding } from './finding.js';
import type { LocalFacts } from './local-checks.js';

/** A certificate this close to its end is worth a warning. */
const EXPIRY_WARNING_DAYS = 14;
/** A clock this far from the service's is worth a warning (tokens, logs, retries). */
const SKEW_WARNING_SECONDS = 60;

function portOf(url: URL): number {
  return Number(url.port || (url.protocol === 'https:' ? 443 : 80));
}

/** The proxy a request to this URL goes through, if any (NO_PROXY by host or suffix). */
function proxyFor(url: URL, facts: LocalFacts): string | undefined {
  const proxy =
    url.protocol === 'https:' ? (facts.proxy?.https ?? facts.proxy?.http) : facts.proxy?.http;
  if (proxy === undefined || isLoopbackHost(url.hostname)) return undefined;
  const bypass = (facts.proxy?.noProxy ?? '')
    .split(/[\s,]+/)
    .filter(Boolean)
    .some(
      (entry) =>
        entry === '*' ||
        url.hostname === entry.replace(/^\./, '') ||
        url.hostname.endsWith(entry.startsWith('.') ? entry : `.${entry}`),
    );
  return bypass ? undefined : proxy;
}

/** DNS, TCP and TLS to one URL's origin (or to its proxy): each layer, stopping at a failure. */
async function reach(
  name: string,
  url: URL,
  facts: LocalFacts,
  timeoutMs: number,
): Promise<Finding[]> {
  const proxy = proxyFor(url, facts);
  const host = proxy ? new URL(proxy).hostname : url.hostname;
  const port = proxy ? portOf(new URL(proxy)) : portOf(url);
  const via = proxy ? ` (the proxy ${maskCredentials(proxy)})` : '';
  const network = (what: string, reason: string, fix: string) => [
    fail(`${name}: ${what}`, reason, fix, ExitCode.network),
  ];
  const dns = await probeDns(host);
  if (!dns.ok)
    return network(
      'DNS',
      `${host}${via} does not resolve (${dns.code})`,
      'Check the host name in the URL, and the machine’s DNS.',
    );
  const found: Finding[] = [ok(`${name}: DNS`, `${host}${via} is ${dns.value}`)];
  const tcp = await probeTcp(host, port, timeoutMs);
  if (!tcp.ok)
    return [
      ...found,
      ...network(
        'TCP',
        `${host}:${port}${via}: ${tcp.reason} (${tcp.code})`,
        'Check that the service (or proxy) runs and that no firewall is in the way.',
      ),
    ];
  found.push(ok(`${name}: TCP`, `${host}:${port}${via} connects in ${tcp.value} ms`));
  if (proxy && url.protocol === 'https:') {
    found.push(info(`${name}: TLS`, `through the proxy's tunnel: checked by the request below`));
    return found;
  }
  if (url.protocol !== 'https:') {
    const local = isLoopbackHost(url.hostname);
    found.push(
      local
        ? info(`${name}: TLS`, 'none (plain http to this machine)')
        : warn(
            `${name}: TLS`,
            'none: plain http',
            'Use an https:// URL: the key travels in clear otherwise.',
          ),
    );
    return found;
  }
  const tls = await probeTls(host, port, url.hostname, timeoutMs);
  if (!tls.ok)
    return [
      ...found,
      ...network(
        'TLS',
        `${tls.reason} (${tls.code})`,
        'Check the service’s TLS setup, or what is in front of it.',
      ),
    ];
  const cert = tls.value;
  const expired = cert.daysLeft < 0;
  const validity = expired
    ? `expired ${cert.expiresAt}`
    : `${cert.daysLeft} days left (until ${cert.expiresAt})`;
  const about = `subject ${cert.subject}; issuer ${cert.issuer}; ${validity}`;
  if (expired) {
    return [
      ...found,
      ...network('TLS', `certificate expired; ${about}`, 'Have the certificate renewed.'),
    ];
  }
  if (cert.untrusted || !cert.hostnameMatches) {
    // Both said when both hold: fixing one would only reveal the other.
    const why = [cert.untrusted, cert.hostnameMatches ? undefined : `not for ${url.hostname}`];
    const fixes = [
      cert.untrusted &&
        'Fix the certificate chain; for a private CA, set NODE_EXTRA_CA_CERTS to its file.',
      !cert.hostnameMatches &&
        `Use the host name the certificate is for, or have one issued for ${url.hostname}.`,
    ];
    return [
      ...found,
      ...network(
        'TLS',
        `certificate not trusted: ${why.filter(Boolean).join(', and ')}; ${about}`,
        fixes.filter(Boolean).join(' '),
      ),
    ];
  }
  found.push(
    cert.daysLeft < EXPIRY_WARNING_DAYS
      ? warn(`${name}: TLS`, about, 'The certificate expires soon: have it renewed.')
      : ok(`${name}: TLS`, about),
  );
  return found;
}

/** Fixes for what a failed read says, by its exit code. */
const READ_FIXES: Partial<Record<number, string>> = {
  [ExitCode.notFound]: 'Check the base URL: it should be the service’s API root, ending with /v1.',
  [ExitCode.service]:
    'The address answers, but not as the Animal Store does: check the base URL, and what sits in front of the service (a proxy, a login page).',
  [ExitCode.network]: 'Check the network path above, or raise --timeout for a slow service.',
};

/**
 * One read with the profile's key, GET /pets?limit=1, decoded as `pets list` decodes it (an
 * HTML login page or a body of the wrong shape fails): whether the service answers as the
 * Animal Store, and accepts the key. Not retried: one read, bounded by --timeout.
 */
async function keyAccepted(ctx: RunServices): Promise<Finding[]> {
  let answer;
  try {
    const client = await ctx.clientFor(await ctx.target(), { retries: 0 });
    answer = await client.listPetsPage({ limit: 1 });
  } catch (error) {
    const code = exitCodeFor(error);
    const message = error instanceof PetstoreError ? error.message : String(error);
    const hint = error instanceof PetstoreError ? commandLineHint(error.hint) : undefined;
    const check = code === ExitCode.auth ? 'key accepted' : 'HTTP';
    const fix =
      hint ??
      READ_FIXES[code] ??
      'Run `petstore pets list --limit 1 --verbose` to see the exchange.';
    return [fail(check, message, fix, code)];
  }
  const found: Finding[] = [
    ok('HTTP', `GET /pets?limit=1 answered ${answer.status} with a list of pets`),
    ok('key accepted', 'the service answered with the key'),
  ];
  const date = parseHttpDate(answer.headers.date ?? '');
  if (Number.isNaN(date)) {
    found.push(
      info(
        'clock',
        answer.headers.date === undefined
          ? 'not checked: the service sent no Date header'
          : 'not checked: the service’s Date header is no date',
      ),
    );
  } else {
    const skew = Math.round((Date.now() - date) / 1000);
    found.push(
      Math.abs(skew) > SKEW_WARNING_SECONDS
        ? warn('clock', `${skew} s off the service's clock`, 'Set this machine’s clock (NTP).')
        : ok('clock', `within ${Math.max(1, Math.abs(skew))} s of the service's`),
    );
  }
  const { deprecation, sunset } = answer.headers;
  if (deprecation !== undefined || sunset !== undefined) {
    found.push(
      warn(
        'deprecation',
        `GET /pets: deprecated${sunset ? `, removed on ${sunset}` : ''}`,
        'See the service’s notes for its replacement.',
      ),
    );
  }
  return found;
}

/** Every layer between this machine and a working call, for the base and quickstart URLs. */
export async function networkChecks(
  ctx: RunOutput & RunServices,
  facts: LocalFacts,
): Promise<Finding[]> {
  const timeoutMs = Math.round(ctx.settings.http.timeoutSeconds * 1000);
  const findings: Finding[] = [];
  if (!facts.embedded) {
    // No usable base URL (unset, or refused above): nothing to reach, no key to try.
    if (facts.baseUrl === undefined) return findings;
    for (const [name, url] of [
      ['base URL', facts.baseUrl],
      ['quickstart URL', facts.quickstartUrl],
    ] as const) {
      if (url === undefined) continue;
      const layers = await reach(name, new URL(url), facts, timeoutMs);
      findings.push(...layers);
      if (name === 'base URL' && layers.some((finding) => finding.status === 'fail'))
        return findings;
    }
  }
  findings.push(...(await keyAccepted(ctx)));
  findings.push(
    info(
      'deprecation',
      'GET /pets/{petId} (pets get) is deprecated: removed on 2030-12-05; use pets list --status',
    ),
  );
  return findings;
}

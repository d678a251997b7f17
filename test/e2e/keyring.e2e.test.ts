import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, freshHome, runCli } from '../helpers/run-cli.js';
import { sendJson, startTestServer, type TestServer } from '../helpers/test-server.js';

const KEY = 'sk_live_GNOME_SECRET_8642';
/** GNOME Keyring and a D-Bus session: installed by .ci/run, which then requires this test. */
const haveKeyring =
  existsSync('/usr/bin/gnome-keyring-daemon') && existsSync('/usr/bin/dbus-run-session');
const required = process.env.PETSTORE_REQUIRE_KEYRING_TESTS === '1';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer((_req, res) => sendJson(res, 200, '[]'));
});
afterAll(() => server.close());

/** Runs the shell script in a new D-Bus session with an unlocked GNOME Keyring. */
function inKeyringSession(script: string, env: Record<string, string>): Promise<string> {
  const file = join(mkdtempSync(join(tmpdir(), 'keyring-session-')), 'session.sh');
  writeFileSync(
    file,
    `set -e\nprintf pw | gnome-keyring-daemon --unlock --components=secrets >/dev/null\n${script}\n`,
  );
  return new Promise((resolve, reject) => {
    execFile(
      'dbus-run-session',
      ['--', 'bash', file],
      { env: { PATH: process.env.PATH ?? '', ...env }, timeout: 60_000 },
      (error, stdout, stderr) =>
        error ? reject(new Error(`${error.message}\n${stderr}`)) : resolve(stdout),
    );
  });
}

describe.runIf(haveKeyring || required)('keys in GNOME Keyring, for real', () => {
  it('login leaves no key in config.json, status says keyring, requests carry it, logout clears it', async () => {
    const home = freshHome();
    const petstore = `"${process.execPath}" "${BIN}"`;
    const out = await inKeyringSession(
      `${petstore} -q profile set staging --base-url ${server.url}/v1
printf '%s\\n' "$KEY" | ${petstore} auth login --profile staging 2>&1
echo "--- config"; cat "$HOME/.config/petstore/config.json"; echo
echo "--- status"; ${petstore} auth status --profile staging -o json
echo "--- list"; ${petstore} --profile staging pets list --json
echo "--- logout"; ${petstore} auth logout --profile staging 2>&1
echo "--- after"; ${petstore} auth status --profile staging -o json`,
      { HOME: home, KEY },
    );
    const [login, configText, status, list, logout, after] = out.split(/^--- \w+\n/m);
    expect(login).toContain('in the OS keyring.');
    expect(configText).not.toContain(KEY);
    expect(JSON.parse(configText!)).toMatchObject({
      profiles: { staging: { keyStore: 'keyring' } },
    });
    expect(JSON.parse(status!)).toEqual([
      expect.objectContaining({ keySource: 'keyring', key: '****8642' }),
    ]);
    expect(list).toBe('[]\n');
    expect(server.requests.at(-1)!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(logout).toContain('Removed the key of profile staging from the OS keyring.');
    expect(JSON.parse(after!)).toEqual([expect.objectContaining({ keySource: 'none' })]);
    expect(out).not.toContain(KEY);
  }, 60_000);
});

describe('no keyring to use', () => {
  async function loginWith(env: Record<string, string>) {
    const home = freshHome();
    await runCli(['-q', 'profile', 'set', 'staging', '--base-url', `${server.url}/v1`], {
      env: { HOME: home },
    });
    const result = await runCli(['auth', 'login', '--profile', 'staging', '--no-verify'], {
      env: { HOME: home, ...env },
      input: `${KEY}\n`,
    });
    const config = readFileSync(join(home, '.config', 'petstore', 'config.json'), 'utf8');
    return { result, config };
  }

  it('with no Secret Service at all, login falls back to the file at once and says why', async () => {
    const { result, config } = await loginWith({});
    expect(result.code).toBe(0);
    // A calm note, one line: no keyring is what a server has, not a fault.
    expect(result.stderr).toContain('No OS keyring here (no D-Bus session bus');
    expect(result.stderr).not.toContain('warning:');
    expect(result.stderr).not.toContain('AccessDenied');
    expect(result.stderr).toContain('(mode 0600)');
    expect(config).toContain(KEY);
  });

  it('a keyring that never answers does not hang the tool: the file after the deadline', async () => {
    // A D-Bus address whose socket accepts and then says nothing, as a wedged service would.
    const socket = join(mkdtempSync(join(tmpdir(), 'silent-bus-')), 'bus');
    const silent: Server = createServer(() => undefined);
    await new Promise<void>((resolve) => silent.listen(socket, resolve));
    try {
      const { result, config } = await loginWith({
        DBUS_SESSION_BUS_ADDRESS: `unix:path=${socket}`,
      });
      expect(result.code).toBe(0);
      expect(result.stderr).toContain('it did not answer within 2.5 s');
      expect(config).toContain(KEY);
    } finally {
      silent.close();
    }
  }, 20_000);
});

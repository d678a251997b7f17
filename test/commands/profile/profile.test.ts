import { describe, expect, it } from 'vitest';
import { runProfileList } from '../../../src/commands/profile/list.js';
import { runProfileSet } from '../../../src/commands/profile/set.js';
import { runProfileShow } from '../../../src/commands/profile/show.js';
import { runProfileUse } from '../../../src/commands/profile/use.js';
import { ENV_KEY, useConfigHome } from '../../helpers/config-home.js';
import { optionsOf } from '../../helpers/run-f.js';
import { verbContext } from '../../helpers/verb-context.js';

const cli = useConfigHome();
const { run, login } = cli;

describe('profiles', () => {
  it('lists the built-ins with sandbox active on a fresh machine', async () => {
    const result = await run(['profile', 'list', '--json']);
    expect(result.code).toBe(0);
    const rows = JSON.parse(result.out) as { name: string; active: boolean }[];
    expect(rows.map((row) => [row.name, row.active])).toEqual([
      ['production', false],
      ['staging', false],
      ['sandbox', true],
    ]);
  });

  it('sets, uses, shows and removes a custom profile', async () => {
    expect((await run(['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1'])).code).toBe(0);
    expect((await run(['profile', 'use', 'qa'])).code).toBe(0);
    const shown = JSON.parse((await run(['profile', 'show', '--json'])).out) as Record<
      string,
      unknown
    >;
    expect(shown).toMatchObject({
      name: 'qa',
      active: true,
      baseUrl: 'https://qa.test/v1',
      key: null,
    });

    const refused = await run(['profile', 'remove', 'qa'], { tty: false });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain('Pass --yes');
    const declined = await run(['profile', 'remove', 'qa'], { stdin: 'n\n' });
    expect(declined.err).toContain('Remove profile qa? (y/N)');
    expect(declined.err).toContain('Nothing removed.');
    await run(['auth', 'login', '--profile', 'qa', '--no-verify'], { stdin: 'sk_qa_1\n' });
    const confirmed = await run(['profile', 'remove', 'qa'], { stdin: 'yes\n' });
    expect(confirmed.err).toContain('Remove profile qa and its stored API key? (y/N)');
    expect(confirmed.err).toContain('Removed profile qa.');
    await run(['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1']);
    await run(['profile', 'use', 'qa']);
    const removed = await run(['profile', 'remove', 'qa', '--yes'], { tty: false });
    expect(removed.code).toBe(0);
    expect(removed.err).toContain('The active profile is now sandbox.');
    const rows = JSON.parse((await run(['profile', 'list', '--json'])).out) as { name: string }[];
    expect(rows.map((row) => row.name)).not.toContain('qa');
  });

  it('says when profile set changes an existing URL, and warns about a path without /v1', async () => {
    await run(['profile', 'set', 'staging', '--base-url', 'https://a.test/v1']);
    const result = await run(['profile', 'set', 'staging', '--base-url', 'https://b.test/api']);
    expect(result.err).toContain('base URL changed from https://a.test/v1 to https://b.test/api');
    expect(result.err).toContain('does not end with /v1');
  });

  it.each([
    [['profile', 'use', 'nope'], /no profile named "nope"/],
    [['profile', 'set', 'bad name!', '--base-url', 'https://x.test/v1'], /invalid profile name/],
    [['profile', 'set', 'qa', '--base-url', 'ftp://x.test/v1'], /must be an http or https URL/],
    [['profile', 'set', 'qa', '--base-url', 'not a url'], /not a valid URL/],
    [['profile', 'set', 'qa'], /needs --base-url/],
    [['profile', 'set', 'sandbox', '--base-url', 'https://x.test/v1'], /no URLs to set/],
    [['--profile', 'ghost', 'pets', 'list'], /no profile named "ghost"/],
    // With no key anywhere: the URL that could never work is what is said, not the key.
    [['--base-url', 'ftp://x.test/v1', 'pets', 'list'], /must be an http or https URL/],
    [['--base-url', 'https://u:p@x.test/v1', 'pets', 'list'], /must not contain credentials/],
  ])('rejects %j with exit 2', async (args, message) => {
    const result = await run(args);
    expect(result.code).toBe(2);
    expect(result.err).toMatch(message);
  });

  it.each(['constructor', 'toString', 'hasOwnProperty'])(
    'a profile named %s, like any object has, is saved and used like any other',
    async (name) => {
      const set = await run(['profile', 'set', name, '--base-url', 'https://x.test/v1']);
      expect(set.code, set.err).toBe(0);
      const shown = await run(['profile', 'show', name, '--json']);
      expect(shown.code, shown.err).toBe(0);
      expect(JSON.parse(shown.out)).toMatchObject({ name, baseUrl: 'https://x.test/v1' });
    },
  );

  it('remove resets a built-in profile to its defaults, its key kept', async () => {
    await run(['profile', 'set', 'production', '--base-url', 'https://prod.test/v1']);
    await run(['profile', 'set', 'production', '--agent-writes', 'allow']);
    await login('production');
    const reset = await run(['profile', 'remove', 'production', '--yes']);
    expect(reset.code, reset.err).toBe(0);
    expect(reset.err).toContain('Profile production is built in: reset to its defaults');
    const status = await run(['--profile', 'production', 'pets', 'list'], {});
    expect(status.err).toContain('profile "production" has no base URL');
    // Its key stayed: set its URL again and it is used.
    await run(['profile', 'set', 'production', '--base-url', 'https://prod.test/v1']);
    const auth = await run(['auth', 'status', '--json']);
    expect(auth.out).toMatch(/"production"[^}]*"config"/);
    const again = await run(['profile', 'remove', 'staging', '--yes']);
    expect(again.code).toBe(0);
    expect(again.err).toContain('has its defaults already; nothing changed');
  });

  it('explains how to set the URL of a built-in profile that has none', async () => {
    const result = await run(['--profile', 'production', 'pets', 'list'], {
      env: { PETSTORE_API_KEY: ENV_KEY },
    });
    expect(result.code).toBe(2);
    expect(result.err).toContain('profile "production" has no base URL');
    expect(result.err).toContain('petstore profile set production --base-url URL');
  });

  it('warns when a remote URL is plain http, but not for this machine', async () => {
    const remote = await run(['profile', 'set', 'qa', '--base-url', 'http://qa.test/v1']);
    expect(remote.err).toContain(
      '--base-url is plain http: commands will need --allow-insecure-http',
    );
    const local = await run(['profile', 'set', 'local', '--base-url', 'http://127.0.0.1:4010/v1']);
    expect(local.err).not.toContain('plain http');
  });

  it.each([
    ['--no-input', ['--no-input'], {}],
    ['PETSTORE_NO_INPUT', [], { PETSTORE_NO_INPUT: '1' }],
    ['CI', [], { CI: 'true' }],
  ])('asks nothing at a terminal with %s: it needs --yes (exit 2)', async (_how, flags, env) => {
    await run(['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1']);
    for (const args of [
      ['profile', 'remove', 'qa'],
      ['sandbox', 'reset'],
    ]) {
      const refused = await run([...flags, ...args], { env, stdin: 'y\n' });
      expect(refused.code, args.join(' ')).toBe(2);
      expect(refused.err).toContain('needs confirmation');
      expect(refused.err).toContain('Pass --yes');
      expect(refused.err).not.toContain('(y/N)');
    }
  });

  it('leaving the question (end of input) removes nothing: exit 130', async () => {
    await run(['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1']);
    const left = await run(['profile', 'remove', 'qa'], { stdin: '' });
    expect(left.code).toBe(130);
    expect(left.err).toContain('interrupted at a question; nothing was removed');
    expect((await run(['profile', 'show', 'qa'])).code).toBe(0);
  });

  it('sets what an agent may write: production denies by default, every other profile confirms', async () => {
    const before = JSON.parse((await run(['profile', 'list', '--json'])).out) as {
      name: string;
      agentWrites: string;
    }[];
    expect(Object.fromEntries(before.map((row) => [row.name, row.agentWrites]))).toEqual({
      production: 'deny',
      staging: 'confirm',
      sandbox: 'confirm',
    });
    // The sandbox has no URLs to set, but its agent writes can be.
    const sandbox = await run(['profile', 'set', 'sandbox', '--agent-writes', 'allow']);
    expect(sandbox.code, sandbox.err).toBe(0);
    expect(sandbox.err).toContain('agent writes changed from confirm to allow');
    const shown = JSON.parse((await run(['profile', 'show', 'sandbox', '--json'])).out) as {
      agentWrites: string;
    };
    expect(shown.agentWrites).toBe('allow');
    const bad = await run(['profile', 'set', 'staging', '--agent-writes', 'always']);
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/allow, confirm, deny/);
    const nothing = await run(['profile', 'set', 'staging']);
    expect(nothing.code).toBe(2);
    expect(nothing.err).toContain('--agent-writes');
  });
});

describe('profile verbs: flags to options (runF)', () => {
  it.each([
    [['profile', 'show'], { name: undefined }],
    [['profile', 'show', 'qa'], { name: 'qa' }],
    [['profile', 'list'], {}],
    [['profile', 'use', 'qa', '--dry-run'], { name: 'qa', dryRun: true }],
    [['profile', 'remove', 'qa', '-y'], { name: 'qa', yes: true, dryRun: false }],
    [
      ['--base-url', 'https://x.test/v1', 'profile', 'set', 'qa'],
      { name: 'qa', baseUrl: 'https://x.test/v1', quickstartUrl: undefined, dryRun: false },
    ],
  ])('%j', async (argv, options) => {
    expect(await optionsOf(argv)).toEqual(options);
  });
});

describe('profile verbs, run with typed options', () => {
  type Row = { name: string; active: boolean; baseUrl: string };
  const rows = (out: string) => JSON.parse(out) as Row[];

  it('set makes a profile, use makes it active, show and list say so', async () => {
    const { ctx, io } = verbContext({ raw: { output: 'json' } });
    await runProfileSet(ctx, {
      name: 'qa',
      baseUrl: 'https://qa.test/v1',
      quickstartUrl: undefined,
      dryRun: false,
    });
    await runProfileUse(ctx, { name: 'qa', dryRun: false });
    expect(io.err()).toContain('Active profile: qa.');
    await runProfileList(ctx);
    const qa = rows(io.out()).find((row) => row.name === 'qa');
    expect(qa).toMatchObject({ active: true, baseUrl: 'https://qa.test/v1' });
  });

  it('a dry run of use writes nothing and shows the change', async () => {
    const { ctx, io } = verbContext({ raw: { output: 'json' } });
    await runProfileSet(ctx, {
      name: 'qa',
      baseUrl: 'https://qa.test/v1',
      quickstartUrl: undefined,
      dryRun: false,
    });
    await runProfileUse(ctx, { name: 'qa', dryRun: true });
    expect(io.out()).toContain('"dryRun":true');
    expect(io.err()).toContain('Dry run: nothing was written.');
    const { ctx: after, io: afterIO } = verbContext({
      raw: { output: 'json' },
      env: { HOME: ctx.env.HOME! },
    });
    await runProfileShow(after, { name: undefined });
    expect(rows(afterIO.out())[0]?.name).not.toBe('qa');
  });

  it('use of a profile that does not exist is refused, naming the ones there are', async () => {
    const { ctx } = verbContext({ raw: { output: 'json' } });
    await expect(runProfileUse(ctx, { name: 'nope', dryRun: false })).rejects.toThrow(/nope/);
  });
});

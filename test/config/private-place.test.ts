import {
  chmodSync,
  chownSync,
  mkdirSync,
  readFileSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useConfigHome } from '../helpers/config-home.js';

const cli = useConfigHome();

/** Commands that write the config, and ones that only read a key or URL from it. */
const WRITES = [
  ['profile', 'set', 'qa', '--base-url', 'https://qa.test/v1'],
  ['profile', 'use', 'staging'],
  ['auth', 'login', '--profile', 'staging', '--no-verify', '--insecure-storage'],
];
const READS = [
  ['profile', 'show', 'qa'],
  ['auth', 'status'],
  ['-o', 'json', 'pets', 'list'],
];

const modeOf = (path: string) => statSync(path).mode & 0o7777;

function configWith(folder: string, data: object, mode = 0o600) {
  mkdirSync(folder, { recursive: true });
  const file = join(folder, 'config.json');
  writeFileSync(file, JSON.stringify(data), { mode });
  chmodSync(file, mode);
  return file;
}

const QA = { profiles: { qa: { baseUrl: 'https://qa.test/v1', apiKey: 'sk_qa_private_place_1' } } };

describe('a config folder or file petstore did not make', () => {
  it('is never given another mode, whatever the command', async () => {
    for (const mode of [0o1777, 0o777, 0o775, 0o755, 0o555, 0o750, 0o700]) {
      for (const args of [...WRITES, ...READS]) {
        const folder = join(cli.home, `f${mode.toString(8)}-${args[0]}-${args[1]}`);
        mkdirSync(folder);
        chmodSync(folder, mode);
        await cli.run(args, { env: { PETSTORE_CONFIG_DIR: folder }, stdin: 'sk_typed_key_123\n' });
        expect(modeOf(folder), `${mode.toString(8)} ${args.join(' ')}`).toBe(mode);
      }
    }
  });

  it('that others can write is refused, before anything is written, naming the fix', async () => {
    for (const mode of [0o1777, 0o777, 0o775, 0o757, 0o773]) {
      for (const args of WRITES) {
        const folder = join(cli.home, `w${mode.toString(8)}-${args[0]}-${args[1]}`);
        mkdirSync(folder);
        chmodSync(folder, mode);
        const result = await cli.run(args, {
          env: { PETSTORE_CONFIG_DIR: folder },
          stdin: 'sk_typed_key_123\n',
        });
        expect(result.code, `${mode.toString(8)} ${args.join(' ')}`).toBe(2);
        expect(result.err).toContain(`other users can write it (mode ${mode.toString(8)})`);
        expect(result.err).toContain(`chmod go-w ${folder}`);
        expect(() => statSync(join(folder, 'config.json'))).toThrow();
      }
    }
  });

  it('a config in a folder others can write, or a file they can write, is not read', async () => {
    const cases: [string, number, number][] = [
      ['folder', 0o777, 0o600],
      ['sticky', 0o1777, 0o600],
      ['file', 0o700, 0o666],
      ['group', 0o700, 0o620],
    ];
    for (const [name, folderMode, fileMode] of cases) {
      const folder = join(cli.home, name);
      const file = configWith(folder, { ...QA, active: 'qa' }, fileMode);
      chmodSync(folder, folderMode);
      const before = readFileSync(file, 'utf8');
      for (const args of [...READS, ...WRITES]) {
        const result = await cli.run(args, { env: { PETSTORE_CONFIG_DIR: folder } });
        expect(result.code, `${name} ${args.join(' ')}`).toBe(2);
        expect(result.err).toContain('petstore will not use');
        expect(result.err).not.toContain('sk_qa_private_place_1');
      }
      expect(readFileSync(file, 'utf8')).toBe(before);
      expect(modeOf(file)).toBe(fileMode);
      expect(modeOf(folder)).toBe(folderMode);
    }
  });

  it('a folder above that others can write lets them replace it, unless it is sticky', async () => {
    const open = join(cli.home, 'open');
    configWith(join(open, 'cfg'), QA);
    chmodSync(open, 0o777);
    const refused = await cli.run(['profile', 'show', 'qa'], {
      env: { PETSTORE_CONFIG_DIR: join(open, 'cfg') },
    });
    expect(refused.code).toBe(2);
    expect(refused.err).toContain(`${open} is not private`);
    chmodSync(open, 0o1777);
    const sticky = await cli.run(['profile', 'show', 'qa'], {
      env: { PETSTORE_CONFIG_DIR: join(open, 'cfg') },
    });
    expect(sticky.code).toBe(0);
  });

  it('reached through a link, is judged where it is', async () => {
    const shared = join(cli.home, 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    symlinkSync(shared, join(cli.home, 'link'));
    const result = await cli.run(WRITES[0]!, {
      env: { PETSTORE_CONFIG_DIR: join(cli.home, 'link') },
    });
    expect(result.code).toBe(2);
    expect(modeOf(shared)).toBe(0o1777);
  });

  it('a key in a file others can read is used, with a warning naming chmod 600, once', async () => {
    const folder = join(cli.home, 'readable');
    const file = configWith(folder, QA, 0o644);
    const result = await cli.run(['profile', 'show', 'qa'], {
      env: { PETSTORE_CONFIG_DIR: folder },
    });
    expect(result.code).toBe(0);
    expect(result.err.match(/other users can read/g)).toHaveLength(1);
    expect(result.err).toContain(`chmod 600 ${file}`);
    const quiet = await cli.run(['-q', 'profile', 'show', 'qa'], {
      env: { PETSTORE_CONFIG_DIR: folder },
    });
    expect(quiet.err).toBe('');
    // A write keeps the mode the user gave the file: petstore changes no mode it did not set.
    expect(
      (await cli.run(['profile', 'use', 'qa'], { env: { PETSTORE_CONFIG_DIR: folder } })).code,
    ).toBe(0);
    expect(modeOf(file)).toBe(0o644);
    expect(modeOf(folder)).toBe(0o755);
  });

  it('a folder petstore makes is private', async () => {
    const folder = join(cli.home, 'new', 'cfg');
    expect((await cli.run(WRITES[0]!, { env: { PETSTORE_CONFIG_DIR: folder } })).code).toBe(0);
    expect(modeOf(folder)).toBe(0o700);
    expect(modeOf(join(folder, 'config.json'))).toBe(0o600);
  });

  it('a file the user made keeps its mode; a read-only one is not written', async () => {
    for (const mode of [0o700, 0o640, 0o600]) {
      const folder = join(cli.home, `kept${mode.toString(8)}`);
      const file = configWith(folder, QA, mode);
      expect(
        (await cli.run(['profile', 'use', 'qa'], { env: { PETSTORE_CONFIG_DIR: folder } })).code,
      ).toBe(0);
      expect(modeOf(file)).toBe(mode);
    }
    for (const mode of [0o400, 0o440]) {
      const folder = join(cli.home, `ro${mode.toString(8)}`);
      const file = configWith(folder, QA, mode);
      const before = readFileSync(file, 'utf8');
      const result = await cli.run(['profile', 'use', 'qa'], {
        env: { PETSTORE_CONFIG_DIR: folder },
      });
      expect(result.code).toBe(2);
      expect(result.err).toContain(`is read-only (mode ${mode.toString(8)})`);
      expect(result.err).toContain(`chmod u+w ${file}`);
      expect(modeOf(file)).toBe(mode);
      expect(readFileSync(file, 'utf8')).toBe(before);
    }
  });

  it('is judged where its links lead as well as where it is named', async () => {
    const open = join(cli.home, 'ww');
    mkdirSync(open);
    chmodSync(open, 0o777);
    // The file itself, a link into a folder others can write.
    configWith(join(open, 'inner'), QA);
    const cfg = join(cli.home, 'cfg-link');
    mkdirSync(cfg, { mode: 0o700 });
    symlinkSync(join(open, 'inner', 'config.json'), join(cfg, 'config.json'));
    const linkedFile = await cli.run(['profile', 'show', 'qa'], {
      env: { PETSTORE_CONFIG_DIR: cfg },
    });
    expect(linkedFile.code).toBe(2);
    expect(linkedFile.err).toContain(`${open} is not private`);
    // The folder, a link to one under a folder others can write.
    const named = join(cli.home, 'named');
    mkdirSync(named, { mode: 0o700 });
    symlinkSync(join(open, 'inner'), join(named, 'sub'));
    const linkedFolder = await cli.run(['profile', 'show', 'qa'], {
      env: { PETSTORE_CONFIG_DIR: join(named, 'sub') },
    });
    expect(linkedFolder.code).toBe(2);
    expect(linkedFolder.err).toContain(`${open} is not private`);
  });

  it.runIf(process.getuid?.() === 0)(
    'a folder above it owned by another user is refused: they can replace what is under it',
    async () => {
      const theirs = join(cli.home, 'theirs');
      configWith(join(theirs, 'cfg'), QA);
      chmodSync(theirs, 0o755);
      chownSync(theirs, 1234, 1234);
      const result = await cli.run(['profile', 'show', 'qa'], {
        env: { PETSTORE_CONFIG_DIR: join(theirs, 'cfg') },
      });
      expect(result.code).toBe(2);
      expect(result.err).toContain('it belongs to another user (uid 1234)');
    },
  );
});

import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { appendFileSync, linkSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { flockFile } from '../../src/core/file-flock.js';

const hasFlock = spawnSync('flock', ['--version']).status === 0;

function journalFile(): string {
  const path = join(mkdtempSync(join(tmpdir(), 'petstore-flock-')), 'run.journal');
  writeFileSync(path, '{"kind":"header"}\n');
  return path;
}

/** Another process taking the lock as petstore does; resolves once it holds it. */
const HOLDER = `
import(process.argv[1]).then(async ({ flockFile }) => {
  const attempt = await flockFile(process.argv[2]);
  process.stdout.write(attempt && attempt.taken ? 'held\\n' : 'not held\\n');
  setTimeout(() => process.exit(0), 60_000); // never outlives a test run
});
`;
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

async function holderOf(path: string): Promise<ChildProcess> {
  const module = join(process.cwd(), 'src', 'core', 'file-flock.ts');
  const child = spawn(process.execPath, ['-e', HOLDER, module, path], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  children.push(child);
  const said = await new Promise<string>((resolve) =>
    child.stdout.setEncoding('utf8').once('data', resolve),
  );
  expect(said).toBe('held\n');
  return child;
}

describe.runIf(hasFlock)('a lock on a file itself', () => {
  it('is taken once, whatever name the file is reached by, and again once released', async () => {
    const journal = journalFile();
    const hardLink = join(journal, '..', 'hard.journal');
    linkSync(journal, hardLink);
    const first = await flockFile(journal);
    expect(first?.taken).toBe(true);
    expect(await flockFile(hardLink)).toEqual({ taken: false });
    expect(await flockFile(journal)).toEqual({ taken: false });
    if (first?.taken) await first.release();
    const again = await flockFile(hardLink);
    expect(again?.taken).toBe(true);
    if (again?.taken) await again.release();
  });

  it('is kept while its holder writes, opens and closes the file (an fcntl lock would not be)', async () => {
    const journal = journalFile();
    const held = await flockFile(journal);
    expect(held?.taken).toBe(true);
    for (let write = 0; write < 20; write++) {
      appendFileSync(journal, `{"kind":"record","n":${write}}\n`);
      readFileSync(journal);
    }
    expect(await flockFile(journal)).toEqual({ taken: false });
    if (held?.taken) await held.release();
  });

  it('is released the moment its holder is killed (SIGKILL): nothing is left to clear', async () => {
    const journal = journalFile();
    const holder = await holderOf(journal);
    expect(await flockFile(journal)).toEqual({ taken: false });
    const gone = new Promise((resolve) => holder.once('exit', resolve));
    holder.kill('SIGKILL');
    await gone;
    // The helper sees its pipe close and ends: within a bounded wait, the lock is free.
    let attempt = await flockFile(journal);
    for (let tries = 0; tries < 100 && !attempt?.taken; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      attempt = await flockFile(journal);
    }
    expect(attempt?.taken).toBe(true);
    if (attempt?.taken) await attempt.release();
  });

  it("is kept when its holder's whole process group gets Ctrl-C and the holder carries on", async () => {
    const journal = journalFile();
    const module = join(process.cwd(), 'src', 'core', 'file-flock.ts');
    // The holder leads a group of its own, as petstore at a terminal does, and finishes its
    // work on SIGINT rather than ending.
    const script = `process.on('SIGINT', () => process.stdout.write('finishing\\n'));
      import(process.argv[1]).then(async ({ flockFile }) => {
        const attempt = await flockFile(process.argv[2]);
        process.stdout.write(attempt && attempt.taken ? 'held\\n' : 'not held\\n');
        setTimeout(() => process.exit(0), 60_000);
      });`;
    const holder = spawn(process.execPath, ['-e', script, module, journal], {
      stdio: ['ignore', 'pipe', 'inherit'],
      detached: true,
    });
    children.push(holder);
    const lines = holder.stdout.setEncoding('utf8');
    expect(await new Promise((resolve) => lines.once('data', resolve))).toBe('held\n');
    const finishing = new Promise((resolve) => lines.once('data', resolve));
    process.kill(-(holder.pid ?? 0), 'SIGINT');
    expect(await finishing).toBe('finishing\n');
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await flockFile(journal)).toEqual({ taken: false });
  });

  it('does not keep its holder running once the holder is done', () => {
    const journal = journalFile();
    const module = join(process.cwd(), 'src', 'core', 'file-flock.ts');
    const script = `import(process.argv[1]).then(async ({ flockFile }) => {
      const attempt = await flockFile(process.argv[2]);
      process.stdout.write(String(attempt && attempt.taken));
    });`;
    const ran = spawnSync(process.execPath, ['-e', script, module, journal], {
      encoding: 'utf8',
      timeout: 20_000,
    });
    expect(ran.stdout).toBe('true');
    expect(ran.signal).toBeNull();
    expect(ran.status).toBe(0);
  });
});

describe('where flock cannot be used', () => {
  it('is skipped (undefined), not an error: the other locks still apply', async () => {
    const missing = join(mkdtempSync(join(tmpdir(), 'petstore-flock-')), 'no', 'such.journal');
    expect(await flockFile(missing)).toBeUndefined();
  });
});

describe.runIf(hasFlock && spawnSync('mkfifo', ['--version']).status === 0)(
  'a file whose opening blocks (a FIFO with no writer)',
  () => {
    it('is skipped within a bounded wait, and leaves no helper behind', async () => {
      const fifo = join(mkdtempSync(join(tmpdir(), 'petstore-flock-')), 'run.journal');
      spawnSync('mkfifo', [fifo]);
      const started = performance.now();
      expect(await flockFile(fifo)).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(15_000);
      const left = spawnSync('pgrep', ['-f', `flock --nonblock .* ${fifo}`], { encoding: 'utf8' });
      expect(left.stdout.trim()).toBe('');
    }, 30_000);
  },
);

import { describe, expect, it } from 'vitest';
import { SandboxDatabase } from '../../src/sandbox/database.js';

const list = (db: SandboxDatabase) => JSON.parse(db.listPetsPage({ limit: 100 }).json) as unknown[];

describe('writes queued in one turn share a transaction', () => {
  it('commits them all together', async () => {
    const db = new SandboxDatabase(':memory:');
    const created = await Promise.all(
      ['A', 'B', 'C'].map((name) => db.write(() => db.createPetJson(name, 1n, undefined))),
    );
    expect(created.map((json) => (JSON.parse(json) as { id: number }).id)).toEqual([1, 2, 3]);
    expect(list(db)).toHaveLength(3);
    db.close();
  });

  it('lets one that throws after changing the database fail alone, with nothing of it kept', async () => {
    const db = new SandboxDatabase(':memory:');
    const outcomes = await Promise.allSettled([
      db.write(() => db.createPetJson('A', 1n, undefined)),
      db.write(() => {
        db.createPetJson('half-done', 1n, undefined);
        throw new Error('failed after its insert');
      }),
      db.write(() => db.createPetJson('C', 1n, undefined)),
    ]);
    expect(outcomes.map((outcome) => outcome.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect((outcomes[1] as PromiseRejectedResult).reason).toEqual(
      new Error('failed after its insert'),
    );
    expect(list(db)).toEqual([
      { id: 1, name: 'A', categoryId: 1 },
      { id: 2, name: 'C', categoryId: 1 },
    ]);
    db.close();
  });

  it('rolls back a lone write that throws', async () => {
    const db = new SandboxDatabase(':memory:');
    await expect(
      db.write(() => {
        db.createPetJson('half-done', 1n, undefined);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(list(db)).toEqual([]);
    await db.write(() => db.createPetJson('B', 1n, undefined));
    expect(list(db)).toEqual([{ id: 1, name: 'B', categoryId: 1 }]);
    db.close();
  });
});

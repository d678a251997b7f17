import { describe, expect, it } from 'vitest';
import { retryTransient, sqliteFailure } from '../../src/core/sqlite.js';

/** A node:sqlite error of this result code (extended codes keep the primary in the low byte). */
const sqliteError = (errcode: number) => Object.assign(new Error(`code ${errcode}`), { errcode });

describe('retryTransient', () => {
  it('runs the step again while another process holds the lock, then returns its result', () => {
    let tries = 0;
    const result = retryTransient(() => {
      tries++;
      // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL (extended: SQLITE_BUSY_SNAPSHOT).
      if (tries <= 4) throw sqliteError([5, 6, 15, 517][tries - 1]!);
      return 'opened';
    }, 60_000);
    expect(result).toBe('opened');
    expect(tries).toBe(5);
  });

  it('throws a damaged file or any other failure at once, without trying again', () => {
    for (const errcode of [11, 26, 1]) {
      let tries = 0;
      expect(() =>
        retryTransient(() => {
          tries++;
          throw sqliteError(errcode);
        }, 60_000),
      ).toThrow(`code ${errcode}`);
      expect(tries).toBe(1);
    }
    expect(sqliteFailure(new Error('no code'))).toBe('other');
  });

  it('throws the last transient failure once its budget is spent', () => {
    let tries = 0;
    expect(() =>
      retryTransient(() => {
        tries++;
        throw sqliteError(5);
      }, 0),
    ).toThrow('code 5');
    expect(tries).toBe(1);
  });
});

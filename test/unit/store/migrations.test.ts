// Migrations are functions applied in a monotonic order: the list must run 1, 2, 3..., a database from
// the future is refused untouched, and each step applies once even when asked twice.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkMonotonic, LATEST_VERSION, migrate, MIGRATIONS, SchemaFromTheFutureError, type Migration } from '../../../src-main/core/store/sqlite/migrations';
import { DatabaseTooNewError, openDatabase } from '../../../src-main/core/store/sqlite/open';
import { tempDir } from '../../helpers/temp';

const version = (db: Database.Database): number => db.pragma('user_version', { simple: true }) as number;

describe('migrations', () => {
  it('refuses a list whose versions skip or repeat', () => {
    const step = (version: number): Migration => ({ version, name: `m${version}`, up: () => {} });
    expect(() => checkMonotonic([step(1), step(3)])).toThrow(/expected 2/);
    expect(() => checkMonotonic([step(1), step(1)])).toThrow(/expected 2/);
    expect(() => checkMonotonic(MIGRATIONS)).not.toThrow();
  });

  it('brings a new database to the latest schema, step by step, and a second run changes nothing', () => {
    const db = new Database(join(tempDir(), 'm.sqlite'));
    try {
      const applied: number[] = [];
      const traced = MIGRATIONS.map((m) => ({ ...m, up: (d: Database.Database) => (applied.push(m.version), m.up(d)) }));
      migrate(db, 0, traced);
      expect(version(db)).toBe(LATEST_VERSION);
      expect(applied).toEqual(MIGRATIONS.map((m) => m.version));
      // Asked again from a stale version (another process got there first): nothing is applied twice.
      migrate(db, 0, traced);
      expect(applied).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      db.close();
    }
  });

  it('a failing step rolls back whole and leaves the version where it was', () => {
    const db = new Database(join(tempDir(), 'm.sqlite'));
    try {
      const broken: Migration[] = [MIGRATIONS[0]!, { version: 2, name: 'broken', up: (d) => (d.exec('CREATE TABLE half (x) STRICT'), d.exec('NOT SQL')) }];
      expect(() => migrate(db, 0, broken)).toThrow();
      expect(version(db)).toBe(1);
      expect(db.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'half'").pluck().get()).toBe(0);
    } finally {
      db.close();
    }
  });

  it('refuses a database from the future, and opening one leaves it untouched', () => {
    const file = join(tempDir(), 'future.sqlite');
    const db = new Database(file);
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    expect(() => migrate(db)).toThrow(SchemaFromTheFutureError);
    db.close();
    expect(() => openDatabase(file)).toThrow(DatabaseTooNewError);
    const again = new Database(file);
    expect(version(again)).toBe(LATEST_VERSION + 1);
    expect(again.prepare("SELECT count(*) FROM sqlite_master WHERE name = 'exchanges'").pluck().get()).toBe(0);
    again.close();
  });
});

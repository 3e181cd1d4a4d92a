// Damage that SQLite meets only when it reads the damaged page (the first pages, and with them the schema,
// intact): every command that reads it refuses in one line that names the database file and the way out,
// not SQLite's bare "database disk image is malformed"; the desk's own API says the same.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../src-main/core/desk';
import { sign } from '../../src-main/core/signing';
import { DATABASE_FILE } from '../../src-main/core/store/sqlite';
import { closeAfterTest } from '../helpers/closing';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/temp';
import { send, startProxy } from '../integration/proxy/helpers';

const SECRET = 'storage-errors-secret';

/** A data directory whose database has enough captures to fill pages well behind the schema. */
async function populatedHome(): Promise<string> {
  const home = tempDir();
  const desk = createDesk({ home });
  try {
    expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
    const { url } = await startProxy(desk);
    for (let i = 0; i < 40; i++) {
      const body = JSON.stringify({ userId: 'u', depositId: `d-${i}`, currency: 'USD', amount: 1, pad: 'x'.repeat(3_000) });
      expect((await send(url, { body, headers: { 'x-server-authorization': sign(Buffer.from(body), SECRET) } })).status).toBe(200);
    }
  } finally {
    await desk.close();
  }
  return home;
}

/** Keeps the first half of the pages (the header and the schema) and overwrites the rest with garbage. */
function damageBehindTheSchema(file: string): void {
  const bytes = readFileSync(file);
  const pageSize = bytes.readUInt16BE(16);
  const keep = Math.floor(bytes.length / pageSize / 2) * pageSize;
  writeFileSync(file, Buffer.concat([bytes.subarray(0, keep), Buffer.alloc(bytes.length - keep, 0xa5)]));
}

describe('damage behind an intact first page', () => {
  it('the commands that read it and the desk name the database file and the way out', async () => {
    const home = await populatedHome();
    const file = join(home, DATABASE_FILE);
    damageBehindTheSchema(file);

    for (const args of [
      ['captures', '--json'],
      ['export', '--har', '-'],
    ]) {
      const result = await runCli(['--home', home, ...args]);
      expect(result.code, result.stderr).toBe(2);
      const lines = result.stderr.trimEnd().split('\n');
      expect(lines, result.stderr).toHaveLength(1);
      expect(lines[0]).toContain(file);
      expect(lines[0]).toMatch(/is damaged .*move it aside or restore a backup/);
    }

    const desk = closeAfterTest(createDesk({ home }));
    const listed = await desk.listExchanges({ limit: 100 });
    expect(listed.ok).toBe(false);
    if (!listed.ok) {
      expect(listed.error.code).toBe('io-error');
      expect(listed.error.message).toContain(file);
    }
  }, 120_000);
});

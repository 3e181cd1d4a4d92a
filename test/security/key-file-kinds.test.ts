// A key file that is not a small regular file is refused by what it is, before a byte is read: a FIFO
// must not hang the desk, a directory must not give a bare EISDIR, a huge file must not be read whole.
// Each refusal is one line naming the key file and a way out.
import { execFileSync } from 'node:child_process';
import { closeSync, mkdirSync, openSync, ftruncateSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../src-main/core/desk';
import { KEY_FILE } from '../../src-main/core/store/sqlite';
import { closeAfterTest } from '../helpers/closing';
import { tempDir } from '../helpers/temp';

const GiB = 1024 * 1024 * 1024;

const kinds: Array<{ name: string; make: (file: string) => void; why: RegExp }> = [
  { name: 'a FIFO', make: (f) => execFileSync('mkfifo', ['-m', '600', f]), why: /is damaged \(it is a FIFO \(named pipe\), not a regular file\)/ },
  { name: 'a directory', make: (f) => mkdirSync(f, { mode: 0o700 }), why: /is damaged \(it is a directory, not a regular file\)/ },
  {
    name: 'a 1 GiB file',
    make: (f) => {
      // Sparse: the size is what counts, and it is refused from fstat alone.
      const fd = openSync(f, 'w', 0o600);
      ftruncateSync(fd, GiB);
      closeSync(fd);
    },
    why: /is damaged \(expected 32 bytes, found 1073741824\)/,
  },
];

describe('a key file that is not a 32-byte regular file', () => {
  for (const kind of kinds) {
    it(`${kind.name}: refused by type or size, naming the file and a way out`, async () => {
      const home = tempDir();
      const keyFile = join(home, KEY_FILE);
      mkdirSync(home, { recursive: true, mode: 0o700 });
      kind.make(keyFile);
      const desk = closeAfterTest(createDesk({ home }));
      const saved = await desk.saveProfile({ name: 'p', secret: 'key-kinds-secret' });
      expect(saved.ok).toBe(false);
      const message = saved.ok ? '' : saved.error.message;
      expect(message).toContain(keyFile);
      expect(message).toMatch(kind.why);
      expect(message).toMatch(/Restore it from a backup, or remove it/);
      expect(message).not.toMatch(/EISDIR|EAGAIN/);
    });
  }
});

// Files only their owner may read: the secrets' key, the team database's URL (which may hold its
// password). Each is judged by what it is, from the open descriptor, before a byte is read: a directory,
// a FIFO or a device is refused by type (a FIFO would hang the read), one someone else owns or can read
// by owner and mode.
import type { Stats } from 'node:fs';

export type PrivateFileProblem = { problem: 'damaged' | 'foreign-owner' | 'loose-mode'; detail: string };

export function fileKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a plain file';
}

/** Why the file must not be read (its type, owner or mode), or null. Windows has neither Unix owners nor modes. */
export function privateFileProblem(stat: Stats): PrivateFileProblem | null {
  if (!stat.isFile()) return { problem: 'damaged', detail: `it is ${fileKind(stat)}, not a regular file` };
  if (process.platform === 'win32') return null;
  const uid = process.getuid?.();
  if (uid !== undefined && stat.uid !== uid) return { problem: 'foreign-owner', detail: `uid ${stat.uid}; this process runs as uid ${uid}` };
  if ((stat.mode & 0o077) !== 0) return { problem: 'loose-mode', detail: `0${(stat.mode & 0o777).toString(8)}` };
  return null;
}

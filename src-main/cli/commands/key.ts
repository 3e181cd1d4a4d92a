// `wager-desk key new FILE`: a team's key file, made once by whoever sets the team up and handed to every
// desk of the team (--key-file or WAGER_DESK_KEY_FILE). The same format the desk reads: exactly the key's
// bytes, a regular file only its owner may read. It never replaces a file: a key file already there may
// be the one the team's secrets are sealed with, and overwriting it would lose them all.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, openSync, unlinkSync, writeSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import type { Command } from 'commander';
import { KEY_BYTES } from '../../core/desk/shell-kit';
import { UsageError } from '../errors';

/** Why `file` could not be made, in the user's words. */
function refusal(file: string, err: unknown): UsageError {
  const code = (err as NodeJS.ErrnoException).code;
  switch (code) {
    case 'EEXIST':
      return new UsageError(
        `key new: ${file} already exists; a key file is never overwritten (the secrets sealed with it would be lost): choose another name, or remove it yourself first`,
      );
    case 'ENOENT':
    case 'ENOTDIR':
      return new UsageError(`key new: ${file}: the directory ${dirname(file)} does not exist`);
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return new UsageError(`key new: ${file}: not allowed to create a file there (${code})`);
    case 'EISDIR':
      return new UsageError(`key new: ${file} is a directory: name the file to make`);
    default:
      return new UsageError(`key new: ${file}: ${(err as Error).message ?? String(err)}`);
  }
}

/** Makes `file` with a new key; the file is created (never opened if there), written and set to 0600 through one descriptor. */
export function makeKeyFile(file: string): void {
  let fd: number;
  try {
    // 'wx' is O_CREAT | O_EXCL: refuses an existing file, and a symbolic link in its place, dangling or not.
    fd = openSync(file, 'wx', 0o600);
  } catch (err) {
    throw refusal(file, err);
  }
  try {
    // The mode given to open is narrowed by the umask only; set it outright so the file is exactly 0600.
    fchmodSync(fd, 0o600);
    const key = randomBytes(KEY_BYTES);
    let written = 0;
    while (written < KEY_BYTES) written += writeSync(fd, key, written, KEY_BYTES - written);
  } catch (err) {
    // A key file cut short would be refused later as damaged: better none at all.
    closeSync(fd);
    unlinkSync(file);
    throw refusal(file, err);
  }
  closeSync(fd);
}

export function registerKey(program: Command): void {
  const key = program.command('key').description("the key file a team's desks share to seal and open stored secrets");
  key
    .command('new')
    .description(`make a key file: ${KEY_BYTES} random bytes, mode 0600; never overwrites a file`)
    .argument('<file>', 'the file to make')
    .action((name: string) => {
      const file = resolve(name);
      makeKeyFile(file);
      process.stdout.write(`key: ${file} (${KEY_BYTES} random bytes, readable by you only)\n`);
      process.stderr.write(
        'give this file to every desk of the team (--key-file FILE or WAGER_DESK_KEY_FILE) and keep a copy somewhere safe: secrets sealed with it cannot be opened without it\n',
      );
    });
}

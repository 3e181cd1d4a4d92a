import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, writeFileSync, type Stats } from 'node:fs';
import { DeskFailure } from '../result';

/** A sealed value in the database, with the profile it belongs to (named in messages, never opened there). */
export interface SealedValue {
  profile: string;
  sealed: Uint8Array;
}

/** Why the key file cannot be used. */
export type KeyProblem = 'missing' | 'wrong-key' | 'foreign-owner' | 'loose-mode' | 'damaged';

/**
 * The key file cannot open the stored secrets, or must not be trusted. Thrown by everything that needs a
 * secret; its message is one line that names the key file and the ways out.
 */
export class SecretKeyError extends DeskFailure {
  constructor(
    readonly problem: KeyProblem,
    readonly file: string,
    message: string,
  ) {
    super('no-secret', message);
    this.name = 'SecretKeyError';
  }
}

const KEY_BYTES = 32;

function profileList(values: readonly SealedValue[]): string {
  const names = [...new Set(values.map((v) => v.profile))];
  return names.length === 1 ? `profile "${names[0]}"` : `profiles ${names.map((n) => `"${n}"`).join(', ')}`;
}

const REENTER =
  're-enter them with `wager-desk profile set NAME --secret-env VAR` (and `--api-key-env VAR`), which clears every stored secret the key cannot open';

function problemMessage(problem: KeyProblem, file: string, unreadable: readonly SealedValue[], detail: string): string {
  const whose = unreadable.length > 0 ? ` (the secrets of ${profileList(unreadable)})` : '';
  switch (problem) {
    case 'missing':
      return `The key file ${file} is missing, and the database holds secrets sealed with it${whose}. Restore it from the data directory the database came from, or ${REENTER}.`;
    case 'wrong-key':
      return `The key file ${file} does not open the secrets stored in the database${whose}: it is not the key they were sealed with. Restore the right key file, or ${REENTER}.`;
    case 'foreign-owner':
      return `The key file ${file} belongs to another user (${detail}): Wager Desk does not use a key that someone else made or can replace. Remove it if it is not yours, or restore your own key file; then restart.`;
    case 'loose-mode':
      return `The key file ${file} can be read by group or others (mode ${detail}): whoever read it can open the stored secrets. Make it private (chmod 600 ${file}) and consider changing the secrets, or remove it and ${REENTER}.`;
    case 'damaged':
      return `The key file ${file} is damaged (${detail}). Restore it from a backup, or remove it and ${REENTER}.`;
  }
}

/**
 * Encrypts stored secrets with AES-256-GCM under a key that lives in its own file (mode 0600) beside the
 * database, so the database file and its WAL alone reveal no secret. Layout of a sealed value:
 * 12-byte IV | 16-byte tag | ciphertext.
 *
 * The key is read on first use and checked against every sealed value in the database: a new key is made
 * only when the database holds no sealed secret, because a key made beside sealed secrets would silently
 * lose them. A key file owned by another user or readable by others is refused: someone else may know it.
 */
export class SecretBox {
  private key: Buffer | null = null;
  private failure: SecretKeyError | null = null;
  private checked = false;

  private constructor(
    readonly file: string,
    private readonly sealedValues: () => SealedValue[],
  ) {}

  static forKeyFile(file: string, sealedValues: () => SealedValue[]): SecretBox {
    return new SecretBox(file, sealedValues);
  }

  /** Throws SecretKeyError when the key file is missing, foreign, readable by others, or does not open the stored secrets. */
  check(): void {
    this.ready();
  }

  /** The problem with the key file, or null when every stored secret opens. */
  problem(): SecretKeyError | null {
    try {
      this.ready();
      return null;
    } catch (err) {
      if (err instanceof SecretKeyError) return err;
      throw err;
    }
  }

  seal(plain: string): Buffer {
    const key = this.ready();
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Uint8Array): string {
    const key = this.ready();
    const plain = openWith(key, sealed);
    if (plain === null) {
      // Sealed by another process after this one checked (with another key): the same refusal.
      throw new SecretKeyError('wrong-key', this.file, problemMessage('wrong-key', this.file, [], ''));
    }
    return plain;
  }

  /** Whether this sealed value opens with the key (false too when the key is unusable). */
  opens(sealed: Uint8Array): boolean {
    return this.key !== null && openWith(this.key, sealed) !== null;
  }

  /**
   * The way out when the key is lost: the user re-enters a secret. A missing key file is made afresh; a
   * key file that opens nothing stays (it is the user's). The caller clears, in the same transaction,
   * every sealed value that does not open (`opens` is false). A foreign, loose or damaged key file is not
   * a lost key: it must be fixed or removed first.
   */
  startOver(): void {
    const problem = this.problem();
    if (problem === null) return;
    if (problem.problem !== 'missing' && problem.problem !== 'wrong-key') throw problem;
    if (problem.problem === 'missing') this.key = this.createKey();
    this.failure = null;
    this.checked = true;
  }

  private ready(): Buffer {
    if (!this.checked) {
      this.checked = true;
      try {
        this.key = this.load();
      } catch (err) {
        if (!(err instanceof SecretKeyError)) {
          this.checked = false;
          throw err;
        }
        this.failure = err;
      }
    }
    if (this.failure) throw this.failure;
    return this.key!;
  }

  private refuse(problem: KeyProblem, unreadable: readonly SealedValue[], detail = ''): SecretKeyError {
    return new SecretKeyError(problem, this.file, problemMessage(problem, this.file, unreadable, detail));
  }

  private load(): Buffer {
    const sealed = this.sealedValues();
    let fd: number;
    try {
      // Non-blocking: a FIFO put in the key's place must not hang the open (it is refused below, by type).
      fd = openSync(this.file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (sealed.length > 0) throw this.refuse('missing', sealed);
      return this.createKey();
    }
    let key: Buffer;
    try {
      // Type and size from the open file itself, before a byte is read: a directory, a device or a huge
      // file is refused by what it is, not read whole first.
      const stat = fstatSync(fd);
      if (!stat.isFile()) throw this.refuse('damaged', sealed, `it is ${fileKind(stat)}, not a regular file`);
      // Windows has neither Unix owners nor modes; the file lives in the user's profile directory there.
      if (process.platform !== 'win32') {
        const uid = process.getuid?.();
        if (uid !== undefined && stat.uid !== uid) throw this.refuse('foreign-owner', sealed, `uid ${stat.uid}; this process runs as uid ${uid}`);
        if ((stat.mode & 0o077) !== 0) throw this.refuse('loose-mode', sealed, `0${(stat.mode & 0o777).toString(8)}`);
      }
      if (stat.size !== KEY_BYTES) throw this.refuse('damaged', sealed, `expected ${KEY_BYTES} bytes, found ${stat.size}`);
      key = Buffer.alloc(KEY_BYTES);
      const read = readSync(fd, key, 0, KEY_BYTES, 0);
      if (read !== KEY_BYTES) throw this.refuse('damaged', sealed, `expected ${KEY_BYTES} bytes, read ${read}`);
    } finally {
      closeSync(fd);
    }
    const unreadable = sealed.filter((v) => openWith(key, v.sealed) === null);
    this.key = key;
    if (unreadable.length > 0) throw this.refuse('wrong-key', unreadable);
    return key;
  }

  private createKey(): Buffer {
    try {
      // 'wx' fails if another process created the file first; then theirs is checked like any other.
      writeFileSync(this.file, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return this.load();
    }
    return readFileSync(this.file);
  }
}

function fileKind(stat: Stats): string {
  if (stat.isDirectory()) return 'a directory';
  if (stat.isFIFO()) return 'a FIFO (named pipe)';
  if (stat.isSocket()) return 'a socket';
  if (stat.isCharacterDevice() || stat.isBlockDevice()) return 'a device';
  return 'not a plain file';
}

function openWith(key: Buffer, sealed: Uint8Array): string | null {
  const buf = Buffer.from(sealed);
  if (buf.length < 28) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, buf.subarray(0, 12));
    decipher.setAuthTag(buf.subarray(12, 28));
    return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
  } catch {
    return null;
  }
}

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { closeSync, constants, fstatSync, openSync, readFileSync, readSync, writeFileSync } from 'node:fs';
import type { SecretsKeySource } from '../../../shared/model';
import { privateFileProblem } from '../../private-file';
import { DeskFailure } from '../../result';
import { keyProblemMessage, type KeyProblem, type SealedValue } from './key-messages';
import { decodeKeyText, describeKeySource, KEY_BYTES, type KeySource } from './key-source';

export type { KeyProblem, SealedValue } from './key-messages';

/**
 * The key cannot open the stored secrets, or must not be trusted. Thrown by everything that needs a
 * secret; its message is one line that names the key file (or the variable that holds the key, never the
 * key) and the ways out.
 */
export class SecretKeyError extends DeskFailure {
  constructor(
    readonly problem: KeyProblem,
    readonly source: SecretsKeySource,
    message: string,
  ) {
    super('no-secret', message);
    this.name = 'SecretKeyError';
  }
}

/**
 * Encrypts stored secrets with AES-256-GCM under a key kept outside the database, so the database file
 * and its WAL alone reveal no secret. Layout of a sealed value: 12-byte IV | 16-byte tag | ciphertext.
 *
 * The key comes from a KeySource: the data directory's own file (mode 0600), a key file given from
 * outside, or the environment. It is read on first use and checked against every sealed value in the
 * database: a new key is made only for the default file and only when the database holds no sealed
 * secret, because a key made beside sealed secrets would silently lose them, and one made in place of a
 * team's shared key would seal secrets no other process can open. A key file owned by another user or
 * readable by others is refused, wherever it is: someone else may know it.
 */
export class SecretBox {
  private key: Buffer | null = null;
  private failure: SecretKeyError | null = null;
  private checked = false;

  private constructor(
    private readonly source: KeySource,
    private readonly sealedValues: () => SealedValue[],
    private readonly team: boolean,
  ) {}

  /** `team`: the sealed values are a team database's (its refusals then point at the team's key). */
  static forSource(source: KeySource, sealedValues: () => SealedValue[], team = false): SecretBox {
    return new SecretBox(source, sealedValues, team);
  }

  /** Where the key comes from, as the status shows it (never the key). */
  describeSource(): SecretsKeySource {
    return describeKeySource(this.source);
  }

  /** Throws SecretKeyError when the key is missing, foreign, readable by others, malformed, or does not open the stored secrets. */
  check(): void {
    this.ready();
  }

  /** The problem with the key, or null when every stored secret opens. */
  problem(): SecretKeyError | null {
    try {
      this.ready();
      return null;
    } catch (err) {
      if (err instanceof SecretKeyError) return err;
      throw err;
    }
  }

  /**
   * Checks the key again at its next use: the sealed values changed under it (a team's profiles read
   * anew), and a key that opened the old ones may not open the new.
   */
  forgetCheck(): void {
    this.checked = false;
    this.failure = null;
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
    // Sealed by another process after this one checked (with another key): the same refusal.
    if (plain === null) throw this.refuse('wrong-key', []);
    return plain;
  }

  /** Whether this sealed value opens with the key (false too when the key is unusable). */
  opens(sealed: Uint8Array): boolean {
    return this.key !== null && openWith(this.key, sealed) !== null;
  }

  /**
   * The way out when the key is lost: the user re-enters a secret. A missing default key file is made
   * afresh; a key that opens nothing stays (it is the user's, or the team's). The caller clears, in the
   * same transaction, every sealed value that does not open (`opens` is false). A missing given key file
   * is not made (the team's key belongs there), and a foreign, loose, damaged or malformed key is not a
   * lost key: each must be fixed first.
   */
  startOver(): void {
    const problem = this.problem();
    if (problem === null) return;
    if (problem.problem === 'missing' && this.source.from === 'default-file') this.key = this.createKey(this.source.file);
    else if (problem.problem !== 'wrong-key') throw problem;
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
    return new SecretKeyError(problem, describeKeySource(this.source), keyProblemMessage(this.source, problem, unreadable, detail, this.team));
  }

  private load(): Buffer {
    const sealed = this.sealedValues();
    if (this.source.from === 'environment') {
      const key = decodeKeyText(this.source.read());
      if (key === null) throw this.refuse('malformed', sealed);
      return this.accept(key, sealed);
    }
    const file = this.source.file;
    let fd: number;
    try {
      // Non-blocking: a FIFO put in the key's place must not hang the open (it is refused below, by type).
      fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
      if (sealed.length > 0 || this.source.from !== 'default-file') throw this.refuse('missing', sealed);
      return this.createKey(file);
    }
    let key: Buffer;
    try {
      // Type and size from the open file itself, before a byte is read: a directory, a device or a huge
      // file is refused by what it is, not read whole first.
      const stat = fstatSync(fd);
      const unfit = privateFileProblem(stat);
      if (unfit) throw this.refuse(unfit.problem, sealed, unfit.detail);
      if (stat.size !== KEY_BYTES) throw this.refuse('damaged', sealed, `expected ${KEY_BYTES} bytes, found ${stat.size}`);
      key = Buffer.alloc(KEY_BYTES);
      const read = readSync(fd, key, 0, KEY_BYTES, 0);
      if (read !== KEY_BYTES) throw this.refuse('damaged', sealed, `expected ${KEY_BYTES} bytes, read ${read}`);
    } finally {
      closeSync(fd);
    }
    return this.accept(key, sealed);
  }

  /** Keeps the key (startOver may still use it) and refuses it when a stored secret does not open with it. */
  private accept(key: Buffer, sealed: readonly SealedValue[]): Buffer {
    const unreadable = sealed.filter((v) => openWith(key, v.sealed) === null);
    this.key = key;
    if (unreadable.length > 0) throw this.refuse('wrong-key', unreadable);
    return key;
  }

  private createKey(file: string): Buffer {
    try {
      // 'wx' fails if another process created the file first; then theirs is checked like any other.
      writeFileSync(file, randomBytes(KEY_BYTES), { mode: 0o600, flag: 'wx' });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      return this.load();
    }
    return readFileSync(file);
  }
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

import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';

/**
 * Encrypts stored secrets with AES-256-GCM under a key that lives in its own file (mode 0600) beside the
 * database, so the database file and its WAL alone reveal no secret. Layout of a sealed value:
 * 12-byte IV | 16-byte tag | ciphertext.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static fromKeyFile(file: string): SecretBox {
    if (!existsSync(file)) {
      // 'wx' fails if another process created the file first; then read theirs.
      try {
        writeFileSync(file, randomBytes(32), { mode: 0o600, flag: 'wx' });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      }
    }
    const key = readFileSync(file);
    if (key.length !== 32) throw new Error(`The key file ${file} is damaged (expected 32 bytes, found ${key.length}). Stored secrets cannot be read.`);
    try {
      chmodSync(file, 0o600);
    } catch {
      // Not every file system has Unix modes (Windows); the file stays in the user's profile directory.
    }
    return new SecretBox(key);
  }

  seal(plain: string): Buffer {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]);
  }

  open(sealed: Uint8Array): string {
    const buf = Buffer.from(sealed);
    const decipher = createDecipheriv('aes-256-gcm', this.key, buf.subarray(0, 12));
    decipher.setAuthTag(buf.subarray(12, 28));
    return Buffer.concat([decipher.update(buf.subarray(28)), decipher.final()]).toString('utf8');
  }
}

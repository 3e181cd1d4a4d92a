// Searches a directory's files, as bytes, for a secret in the encodings a careless writer might use.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? filesUnder(path) : [path];
  });
}

/** The files that hold the secret as UTF-8, UTF-16LE, or base64 of the secret alone (as a stored BLOB would show in JSON). */
export function filesHolding(dir: string, secret: string): string[] {
  const needles = [Buffer.from(secret, 'utf8'), Buffer.from(Buffer.from(secret).toString('base64').replace(/=+$/, '')), Buffer.from(secret, 'utf16le')];
  return filesUnder(dir).filter((file) => {
    const bytes = readFileSync(file);
    return needles.some((n) => bytes.includes(n));
  });
}

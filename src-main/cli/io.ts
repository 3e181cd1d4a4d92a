import { readFileSync } from 'node:fs';
import { UsageError } from './errors';

/** Reads a body as raw bytes from a file, or from stdin for '-' or no argument. Never decoded. */
export function readBody(file: string | undefined): Buffer {
  try {
    return readFileSync(file === undefined || file === '-' ? 0 : file);
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    // Reading fd 0 when stdin is a closed pipe or absent is an empty body, not an error.
    if ((file === undefined || file === '-') && (e.code === 'EAGAIN' || e.code === 'EOF')) return Buffer.alloc(0);
    throw new UsageError(`cannot read ${file === undefined || file === '-' ? 'stdin' : file}: ${e.message}`);
  }
}

/** Reads a secret from the environment variable named by --secret-env / --api-key-env. */
export function secretFromEnv(flag: string, name: string): string {
  const value = process.env[name];
  if (value === undefined || value === '') throw new UsageError(`${flag} ${name}: the environment variable ${name} is not set or empty`);
  return value;
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

import { readFile } from 'node:fs/promises';
import { UsageError } from './errors';

/**
 * Reads a body as raw bytes from a file, or from stdin for '-' or no argument. Never decoded. Stdin is read
 * as a stream to its end: a synchronous read of fd 0 can fail with EAGAIN on a non-blocking pipe, which is
 * "no data yet", not an empty body.
 */
export async function readBody(file: string | undefined): Promise<Buffer> {
  const fromStdin = file === undefined || file === '-';
  try {
    if (!fromStdin) return await readFile(file);
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks);
  } catch (err) {
    throw new UsageError(`cannot read ${fromStdin ? 'stdin' : file}: ${(err as Error).message}`);
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

/** Writes to stdout and waits while the pipe is full, so that a long listing never piles up in memory. */
export function writeStdout(text: string): Promise<void> {
  if (text === '' || process.stdout.write(text)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = (err?: Error): void => {
      process.stdout.off('drain', onDrain);
      process.stdout.off('error', done);
      if (err) reject(err);
      else resolve();
    };
    const onDrain = (): void => done();
    process.stdout.once('drain', onDrain);
    process.stdout.once('error', done);
  });
}

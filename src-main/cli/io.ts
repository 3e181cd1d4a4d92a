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
    const done = (err?: NodeJS.ErrnoException): void => {
      process.stdout.off('drain', onDrain);
      process.stdout.off('error', done);
      // A reader that left is endQuietlyWhenTheReaderLeaves's to handle, not a failure of the command.
      if (err && err.code !== 'EPIPE') reject(err);
      else resolve();
    };
    const onDrain = (): void => done();
    process.stdout.once('drain', onDrain);
    process.stdout.once('error', done);
  });
}

/**
 * A reader that stops reading (`wager-desk captures | head -1`) closes the pipe, and the next write
 * fails with EPIPE. That is the reader's choice, not the command's failure: a command that runs until
 * stopped (serve, tail) stops as on SIGTERM, any other ends at once with 0, as a Unix tool ended by
 * SIGPIPE would (Node ignores SIGPIPE and reports an error on the stream instead; unhandled, it printed
 * a stack and exited 1). Installed once, for every command, before any output.
 */
export function endQuietlyWhenTheReaderLeaves(): void {
  let gone = false;
  const onError = (err: NodeJS.ErrnoException): void => {
    // Once the reader has left, later writes fail too (the stream is destroyed): nothing more to say.
    if (gone) return;
    if (err.code !== 'EPIPE') throw err;
    gone = true;
    if (process.listenerCount('SIGTERM') > 0) process.emit('SIGTERM', 'SIGTERM');
    else process.exit(0);
  };
  process.stdout.on('error', onError);
  process.stderr.on('error', onError);
}

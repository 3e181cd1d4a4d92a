// A file a command reads whole, checked as the key file is before a byte is read: from the open
// descriptor (opened non-blocking, so a FIFO in its place cannot hang the command), a regular file and
// no larger than the bound; stdin is read up to the bound and refused past it. A refusal names the file,
// its type or its size, never its bytes.
import { closeSync, constants, fstatSync, openSync, readSync } from 'node:fs';
import { fileKind } from '../core/desk/shell-kit';
import { UsageError } from './errors';

const MiB = 1024 * 1024;

function tooLarge(what: string, size: string, maxBytes: number): UsageError {
  return new UsageError(`${what} is ${size}, more than the ${maxBytes / MiB} MiB it may be`);
}

/** The file's bytes, or a one-line refusal: not a regular file, larger than `maxBytes`, unreadable. */
export async function readBoundedInput(file: string, maxBytes: number): Promise<Buffer> {
  if (file === '-') return readStdin(maxBytes);
  let fd: number;
  try {
    fd = openSync(file, constants.O_RDONLY | (constants.O_NONBLOCK ?? 0));
  } catch (err) {
    throw new UsageError(`cannot read ${file}: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`);
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile()) throw new UsageError(`cannot read ${file}: it is ${fileKind(stat)}, not a regular file`);
    if (stat.size > maxBytes) throw tooLarge(file, `${stat.size} bytes`, maxBytes);
    const buf = Buffer.alloc(stat.size);
    let at = 0;
    while (at < stat.size) {
      const n = readSync(fd, buf, at, stat.size - at, at);
      if (n === 0) break;
      at += n;
    }
    return buf.subarray(0, at);
  } finally {
    closeSync(fd);
  }
}

async function readStdin(maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of process.stdin) {
    total += (chunk as Buffer).length;
    if (total > maxBytes) {
      process.stdin.destroy();
      throw tooLarge('stdin', `more than ${maxBytes} bytes`, maxBytes);
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

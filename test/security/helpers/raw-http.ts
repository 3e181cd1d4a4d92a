// Raw HTTP on a socket, for inputs no HTTP client would send: the bytes are written as they are, the
// write side is closed (so an incomplete request ends at once instead of waiting for the server's
// timeout), and everything the server sends back is collected until it closes the connection.
import net from 'node:net';

export interface RawAnswer {
  /** Everything received, as latin1 text. */
  text: string;
  /** The status codes of every response in the answer (pipelined requests answer more than one). */
  statuses: number[];
}

export function statusesOf(text: string): number[] {
  return [...text.matchAll(/(?:^|\r\n)HTTP\/1\.[01] (\d{3}) /g)].map((m) => Number(m[1]));
}

export function rawRoundTrip(port: number, bytes: Uint8Array | string, options: { halfClose?: boolean } = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = (): void => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ text, statuses: statusesOf(text) });
    };
    socket.on('data', (c: Buffer) => chunks.push(c));
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? done() : reject(err)));
    socket.on('close', done);
    socket.on('connect', () => {
      socket.write(bytes);
      if (options.halfClose ?? true) socket.end();
    });
  });
}

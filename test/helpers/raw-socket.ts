// Raw HTTP on a socket, for inputs no HTTP client would send: the bytes are written as they are and
// everything the server sends back is collected. By default the write side is then closed, so an
// incomplete request ends at once instead of waiting for the server's timeout; tests OF those
// timeouts keep it open (halfClose: false). A reset or a broken pipe is an answer too: the server
// may cut a bad request off before reading it all.
import net from 'node:net';

export interface RawAnswer {
  /** Everything received, as latin1 text. */
  text: string;
  /** The status codes of every response in the answer (pipelined requests answer more than one). */
  statuses: number[];
}

export interface RawOptions {
  /** Close the write side after writing (default true). */
  halfClose?: boolean;
  /** Stop at the end of the first complete response with a Content-Length, for servers that keep
   *  the connection alive instead of closing it. */
  firstAnswerOnly?: boolean;
}

/**
 * The status of each response, read in sequence: a response with a Content-Length is skipped by its
 * length (its body may end right before the next status line, with no line break); otherwise the next
 * status line is looked for after a CRLF.
 */
export function statusesOf(text: string): number[] {
  const statuses: number[] = [];
  const here = /HTTP\/1\.[01] (\d{3}) /y;
  const later = /\r\nHTTP\/1\.[01] (\d{3}) /g;
  let at = 0;
  for (;;) {
    here.lastIndex = at;
    later.lastIndex = at;
    const m = here.exec(text) ?? later.exec(text);
    if (!m) return statuses;
    statuses.push(Number(m[1]));
    const headEnd = text.indexOf('\r\n\r\n', m.index + 2);
    if (headEnd < 0) return statuses;
    const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(m.index, headEnd + 2));
    at = length ? headEnd + 4 + Number(length[1]) : headEnd + 2;
  }
}

function firstAnswerComplete(text: string): boolean {
  const head = text.indexOf('\r\n\r\n');
  const length = /\r\ncontent-length: *(\d+)/i.exec(text);
  return head >= 0 && length !== null && text.length - head - 4 >= Number(length[1]);
}

export function rawRoundTrip(port: number, bytes: Uint8Array | string, options: RawOptions = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    const done = (): void => {
      const text = Buffer.concat(chunks).toString('latin1');
      resolve({ text, statuses: statusesOf(text) });
    };
    socket.on('data', (c: Buffer) => {
      chunks.push(c);
      if (options.firstAnswerOnly && firstAnswerComplete(Buffer.concat(chunks).toString('latin1'))) socket.destroy();
    });
    socket.on('error', (err: NodeJS.ErrnoException) => (err.code === 'ECONNRESET' || err.code === 'EPIPE' ? done() : reject(err)));
    socket.on('close', done);
    socket.on('connect', () => {
      socket.write(bytes);
      if (options.halfClose ?? true) socket.end();
    });
  });
}

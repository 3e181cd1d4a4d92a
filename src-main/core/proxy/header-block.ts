// The size of a request's header block as it came over the wire. Node's parser counts only the bytes of
// names and values against maxHeaderSize, so thousands of tiny headers ("a:" CRLF) pass its check while
// taking four times the room; the proxy measures the block itself, line endings included, and refuses
// what is over the limit whole (431) instead of reading it.
import type { IncomingMessage } from 'node:http';

/** Bytes of the request line and header lines, CRLFs and the blank line included (separator spaces counted once). */
export function headerBlockBytes(req: IncomingMessage): number {
  const raw = req.rawHeaders;
  // "METHOD SP target SP HTTP/x.y CRLF"
  let bytes = (req.method?.length ?? 0) + (req.url?.length ?? 0) + 12;
  for (let i = 0; i + 1 < raw.length; i += 2) bytes += raw[i]!.length + raw[i + 1]!.length + 3;
  return bytes + 2;
}

// A TCP relay between the desk and its PostgreSQL, standing in for the network: `cut()` ends every
// connection through it and refuses new ones (as a stopped server or a dropped link does), `mend()`
// takes connections on the same port again. `dropQuietly()` is a link that loses its connections without a
// word (a NAT or a firewall forgetting them): the server's side ends, the desk's side hears nothing until
// it next sends, and is then closed. The server behind it keeps running untouched.
import net from 'node:net';

export interface TcpRelay {
  readonly port: number;
  /** The URL with its host and port replaced by the relay's. */
  through(url: string): string;
  cut(): Promise<void>;
  mend(): Promise<void>;
  /** Ends the server's side of every open connection; the desk's side is closed when it next sends. */
  dropQuietly(): void;
  /** Connections taken so far. */
  readonly accepted: number;
  /** Dropped connections the desk sent on afterwards (each then closed). */
  readonly sentOnDropped: number;
  close(): Promise<void>;
}

export async function startRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  const pairs = new Set<{ inbound: net.Socket; outbound: net.Socket }>();
  let server: net.Server | null = null;
  let accepted = 0;
  let sentOnDropped = 0;
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const s = net.createServer((inbound) => {
        const outbound = net.connect(target.port, target.host);
        accepted++;
        const pair = { inbound, outbound };
        pairs.add(pair);
        inbound.on('close', () => pairs.delete(pair));
        for (const sock of [inbound, outbound]) {
          sockets.add(sock);
          sock.on('close', () => sockets.delete(sock));
          sock.on('error', () => {
            inbound.destroy();
            outbound.destroy();
          });
        }
        inbound.pipe(outbound);
        outbound.pipe(inbound);
      });
      s.once('error', reject);
      s.listen({ host: '127.0.0.1', port }, () => {
        server = s;
        resolve((s.address() as net.AddressInfo).port);
      });
    });
  const stop = (): Promise<void> =>
    new Promise((resolve) => {
      const s = server;
      server = null;
      for (const sock of sockets) sock.destroy();
      if (s === null) return resolve();
      s.close(() => resolve());
    });
  const port = await listen(0);
  return {
    port,
    through(url) {
      const u = new URL(url);
      u.hostname = '127.0.0.1';
      u.port = String(port);
      return u.toString();
    },
    cut: stop,
    async mend() {
      await listen(port);
    },
    dropQuietly() {
      for (const { inbound, outbound } of pairs) {
        inbound.unpipe(outbound);
        outbound.unpipe(inbound);
        outbound.destroy();
        inbound.once('data', () => {
          sentOnDropped++;
          inbound.destroy();
        });
        // Unpiped, the desk's side was paused: it must read to hear the desk send.
        inbound.resume();
      }
    },
    get accepted() {
      return accepted;
    },
    get sentOnDropped() {
      return sentOnDropped;
    },
    close: stop,
  };
}

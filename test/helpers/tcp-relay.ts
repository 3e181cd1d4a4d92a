// A TCP relay between the desk and its PostgreSQL, standing in for the network: `cut()` ends every
// connection through it and refuses new ones (as a stopped server or a dropped link does), `mend()`
// takes connections on the same port again. The server behind it keeps running untouched.
import net from 'node:net';

export interface TcpRelay {
  readonly port: number;
  /** The URL with its host and port replaced by the relay's. */
  through(url: string): string;
  cut(): Promise<void>;
  mend(): Promise<void>;
  close(): Promise<void>;
}

export async function startRelay(target: { host: string; port: number }): Promise<TcpRelay> {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const listen = (port: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const s = net.createServer((inbound) => {
        const outbound = net.connect(target.port, target.host);
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
    close: stop,
  };
}

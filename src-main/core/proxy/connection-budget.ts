// A budget of open connections that keeps room for a valid callback. Idle connections (keep-alive ones
// between requests, ones that never sent a whole request, TLS handshakes still pending) cost a file
// descriptor each; enough of them exhaust the process's limit and new connections wait unaccepted in
// the kernel's backlog, valid callbacks among them. Node's server.maxConnections would refuse the
// newcomer instead, which is the wrong one to drop. So when a connection arrives over the budget, the
// oldest connection with no request in flight is closed to make room; only when every connection has a
// request in flight is the newcomer refused.
import type { Socket } from 'node:net';

/** Open connections at most before the oldest idle one is closed. */
export const DEFAULT_MAX_CONNECTIONS = 800;

export class ConnectionBudget {
  /** Open connections, oldest first (a Map keeps insertion order), with their requests in flight. */
  private readonly open = new Map<Socket, { busy: number }>();

  constructor(private max: number) {}

  setMax(max: number): void {
    this.max = max;
  }

  get size(): number {
    return this.open.size;
  }

  /** A new connection (the raw TCP socket): makes room for it, or closes it when every other one is busy. */
  admit(socket: Socket): void {
    socket.once('close', () => this.open.delete(socket));
    while (this.open.size >= this.max) {
      const idle = this.oldestIdle();
      if (!idle) {
        socket.destroy();
        return;
      }
      this.open.delete(idle);
      idle.destroy();
    }
    this.open.set(socket, { busy: 0 });
  }

  /** A request began on this connection (a TLS socket counts against its raw socket). */
  busy(socket: Socket): void {
    const entry = this.open.get(rawOf(socket));
    if (entry) entry.busy++;
  }

  /** A request on this connection is over (its response closed). */
  idle(socket: Socket): void {
    const entry = this.open.get(rawOf(socket));
    if (entry && entry.busy > 0) entry.busy--;
  }

  private oldestIdle(): Socket | null {
    for (const [socket, entry] of this.open) if (entry.busy === 0) return socket;
    return null;
  }
}

/** The TCP socket under a TLS socket (Node's `_parent`), or the socket itself. */
function rawOf(socket: Socket): Socket {
  return (socket as Socket & { _parent?: Socket | null })._parent ?? socket;
}

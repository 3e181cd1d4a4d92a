// One connection, one caller at a time. node-postgres queues a query sent while another runs, but that
// queue is deprecated (gone in pg 9), and it interleaves callers statement by statement: a read sent
// while another caller's transaction is open runs inside it, and its failure aborts that transaction.
// Each caller here has the connection to itself from its first statement to its last. A section started
// from inside another (a read made while holding the connection) runs at once, in the holder's turn,
// instead of waiting for a turn that cannot come.
import { AsyncLocalStorage } from 'node:async_hooks';

export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();
  private readonly holding = new AsyncLocalStorage<true>();

  /** Runs `section` once every section asked for before it has ended; its result or error is the caller's. */
  run<T>(section: () => Promise<T>): Promise<T> {
    if (this.holding.getStore()) return section();
    const turn = this.last.then(() => this.holding.run(true, section));
    this.last = turn.catch(() => undefined);
    return turn;
  }
}

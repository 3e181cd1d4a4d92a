// Asynchronous sections that must not overlap, run in the order they were asked for: the proxy's starts
// and stops (two quick clicks on one port), a team's profiles read and changed on the copy, one
// PostgreSQL connection's callers (node-postgres' own queue for a query sent while another runs is
// deprecated, and interleaves one caller's statements into another's transaction).
export class OneAtATime {
  private last: Promise<unknown> = Promise.resolve();

  /**
   * Runs `section` once every section asked for before it has settled; its result or error is the
   * caller's alone. A section must never wait for another of the same queue: that one waits for it.
   */
  run<T>(section: () => Promise<T>): Promise<T> {
    const turn = this.last.then(section);
    this.last = turn.catch(() => undefined);
    return turn;
  }
}

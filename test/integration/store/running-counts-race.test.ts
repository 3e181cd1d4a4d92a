// The log's known counts, made of a count read in two statements and the rows written since: a row
// committed between the two statements is counted once, not by the count and again as written past it.
import { afterEach, describe, expect, it } from 'vitest';
import { RunningCounts } from '../../../src-main/core/store/sqlite/running-counts';
import { runStatement, type ReadStep } from '../../../src-main/core/store/sqlite/read-plan';
import { openDesk, sqliteOf, storeOf } from '../../helpers/desk';
import { inboundRow } from '../../helpers/exchanges';
import type { Desk } from '../../../src-main/core/desk';

let desk: Desk | null = null;
afterEach(async () => {
  await desk?.close();
  desk = null;
});

describe('running counts', () => {
  it("count a row committed between the count's two statements once", () => {
    desk = openDesk();
    const store = storeOf(desk);
    const db = sqliteOf(desk);
    for (let i = 0; i < 3; i++) store.exchanges.record(inboundRow());

    const counts = new RunningCounts();
    const cache = new Map();
    const plan = counts.plan(0);
    const run = (step: ReadStep): unknown => (step.kind === 'statement' ? runStatement(db, cache, step) : undefined);
    const maxIdStep = plan.next();
    const countStep = plan.next(run(maxIdStep.value as ReadStep));
    // A capture commits now, written (and announced) through the desk's connection.
    const id = store.exchanges.record(inboundRow());
    counts.wrote(id, 'inbound');
    const done = plan.next(run(countStep.value as ReadStep));

    expect(done.done).toBe(true);
    expect(counts.known()).toEqual({ inbound: 4, outbound: 0 });
    // The next count finds the row it did not count, and still counts it once.
    const again = counts.plan(0);
    let step = again.next();
    while (!step.done) step = again.next(run(step.value));
    expect(counts.known()).toEqual({ inbound: 4, outbound: 0 });
  });
});

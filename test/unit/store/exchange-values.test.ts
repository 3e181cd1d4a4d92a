// The positional parameters of the exchanges' INSERT and UPDATE are written out by hand for speed: each
// must hold every column's value in the order of the column list the statements are built from.
import { describe, expect, it } from 'vitest';
import {
  COMPLETE_COLUMNS,
  completionParams,
  completionValues,
  INSERT_COLUMNS,
  insertParams,
  insertValues,
  type CompleteColumn,
  type InsertColumn,
} from '../../../src-main/core/store/rows/exchange-values';
import { inboundRow } from '../../helpers/exchanges';

/** A record whose every column holds its own name: the parameters then spell the column list. */
const named = <C extends string>(columns: readonly C[]): Record<C, unknown> => Object.fromEntries(columns.map((c) => [c, c])) as Record<C, unknown>;

describe('the exchanges’ positional parameters', () => {
  it('bind every insert column, in the order of INSERT_COLUMNS', () => {
    expect(insertParams(named<InsertColumn>(INSERT_COLUMNS))).toEqual([...INSERT_COLUMNS]);
  });

  it('bind every completion column in the order of COMPLETE_COLUMNS, then the id', () => {
    expect(completionParams(named<CompleteColumn>(COMPLETE_COLUMNS), 42)).toEqual([...COMPLETE_COLUMNS, 42]);
  });

  it('carry what the values hold (a real row and completion)', () => {
    const values = insertValues(inboundRow({ profile: 'acme', scheme: 'http', tags: ['t'] }));
    expect(insertParams(values)).toEqual(INSERT_COLUMNS.map((c) => values[c]));
    const completion = completionValues({ response: null, error: 'timeout', durationMs: 1.5, completedAt: '2026-11-27T00:00:01.000Z' });
    expect(completionParams(completion, 7)).toEqual([...COMPLETE_COLUMNS.map((c) => completion[c]), 7]);
  });
});

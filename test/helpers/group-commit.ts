// A group commit over a bare connection, for tests that write their own statements through it (the
// writes never touch the exchanges or the sandbox the proxy's writes are given).
import type { CaptureTx } from '../../src-main/core/proxy';
import { GroupCommit, type GroupCommitOptions } from '../../src-main/core/store/sqlite/group-commit';
import type { Db } from '../../src-main/core/store/sqlite';

const unused = (): never => {
  throw new Error('this test writes its own statements: no exchanges or sandbox here');
};
const NO_TX: CaptureTx = { rows: { record: unused, finish: unused, addFindings: unused }, sandbox: unused };

export function bareGroupCommit(db: Db, options?: GroupCommitOptions): GroupCommit {
  return new GroupCommit(db, NO_TX, options);
}

// The conformance check against stand-in operators: a correct one passes every check; each defect
// makes the check that catches it fail and leaves the others passing.
import { describe, expect, it } from 'vitest';
import type { Desk } from '../../../src-main/core/desk';
import { CONFORMANCE_CHECK_IDS } from '../../../src-main/core/checks';
import type { CheckReport } from '../../../src-main/shared/model';
import { startOperator, type OperatorDefects, type StandInOperator } from '../../helpers/operator';
import { closeAfterTest } from '../../helpers/closing';
import { openDesk } from '../../helpers/desk';
import { exchangeOf } from '../../helpers/log-reads';

const SECRET = 'check-test-secret';
const USER = 'check-user';

let desk: Desk | undefined;
let operator: StandInOperator | undefined;

async function runAgainst(defects: OperatorDefects): Promise<CheckReport> {
  desk = openDesk();
  operator = closeAfterTest(await startOperator({ secret: SECRET, defects }));
  await desk.saveProfile({ name: 'p', secret: SECRET });
  const res = await desk.runCheck({ to: operator.url, userId: USER });
  if (!res.ok) throw new Error(res.error.message);
  return res.value;
}

const failedIds = (r: CheckReport) => r.checks.filter((c) => c.pass === false).map((c) => c.id);

// Whole runs of every generated check, two in one test: seconds each, many on a loaded machine.
describe('conformance check against stand-in operators', { timeout: 90_000 }, () => {
  it('passes every check of a correct operator, in the documented order, and lists what it cannot observe', async () => {
    const report = await runAgainst({});
    const judged = report.checks.filter((c) => c.pass !== null);
    // The valid cells come first: the other checks of an endpoint depend on them.
    expect(judged.slice(0, 5).map((c) => c.id)).toEqual(['pay.valid', 'results.WIN.valid', 'results.DRAW.valid', 'results.LOSE.valid', 'results.REFUND.valid']);
    expect(judged.map((c) => c.id)).toEqual(CONFORMANCE_CHECK_IDS);
    expect(failedIds(report)).toEqual([]);
    expect(report.failed).toBe(0);
    expect(report.passed).toBe(CONFORMANCE_CHECK_IDS.length);
    const unobservable = report.checks.filter((c) => c.pass === null);
    expect(unobservable.map((c) => c.id)).toEqual(
      expect.arrayContaining(['duplicate.sequential.pay.money', 'duplicate.concurrent.pay.money', 'results.WIN.valid.money']),
    );
    expect(report.notObservable).toBe(unobservable.length);
    // Every id fits in 36 characters and carries the run: wd-<runId> and 16 more hex digits.
    const deposits = [...operator!.deposits.keys()];
    expect(deposits.length).toBeGreaterThan(0);
    for (const d of deposits) expect(d).toMatch(new RegExp(`^wd-${report.runId}[0-9a-f]{16}$`));
    expect(deposits.every((d) => d.length <= 36)).toBe(true);
    expect(operator!.balances.get(USER)).toBeLessThan(100_000);
  });

  it('uses fresh, recognisable ids on every run and records every step as a tagged outbound exchange', async () => {
    const first = await runAgainst({});
    const again = await desk!.runCheck({ to: operator!.url, userId: USER });
    if (!again.ok) throw new Error(again.error.message);
    expect(again.value.runId).not.toBe(first.runId);
    expect(again.value.failed).toBe(0); // a second run must not trip over the first one's deposits

    const deposits = [...operator!.deposits.keys()];
    expect(deposits.length).toBeGreaterThan(0);
    expect(deposits.every((d) => d.startsWith(`wd-${first.runId}`) || d.startsWith(`wd-${again.value.runId}`))).toBe(true);
    for (const c of first.checks.filter((x) => x.pass !== null)) {
      expect(c.exchangeIds.length).toBeGreaterThan(0);
      for (const id of c.exchangeIds) {
        const x = await exchangeOf(desk!, id);
        expect(x).toMatchObject({ direction: 'outbound', origin: 'check', tags: [`check:${first.runId}`] });
      }
    }
    const ins = first.checks.find((c) => c.id === 'pay.refused.insufficient-balance')!;
    expect(ins.actual.status).toBe(402);
    expect(JSON.parse(ins.actual.body!)).toEqual({ errors: [{ code: 'INSUFFICIENT_BALANCE', isClientSafe: true }] });
  });

  const SIGNATURE_FAULTS_EXCEPT_MISSING = [
    'wrong-value',
    'wrong-secret',
    'previous-or-other-profile-secret',
    'over-compact-form',
    'over-trimmed-body',
    'over-empty-object',
  ];
  const ENDPOINTS = ['pay', 'WIN', 'DRAW', 'LOSE', 'REFUND'];
  const defects: Array<[string, OperatorDefects, string[]]> = [
    // Verifying a re-serialization accepts a signature over the compact form and refuses every correctly signed spaced or escaped
    // body (another key order survives JSON.parse and JSON.stringify, so it goes through).
    [
      'verifies over re-serialized JSON',
      { reserializesBeforeVerifying: true },
      [
        ...ENDPOINTS.map((e) => `signature.over-compact-form.${e}`),
        'shape.spaced.pay',
        'shape.spaced.WIN',
        'shape.spaced.REFUND',
        'shape.escapes.pay',
        'shape.escapes.WIN',
        'shape.all-at-once.pay',
      ],
    ],
    // Accepting any well-formed signature lets every fault in that carries one.
    [
      'accepts a bad signature',
      { acceptsAnyWellFormedSignature: true },
      SIGNATURE_FAULTS_EXCEPT_MISSING.flatMap((f) => ENDPOINTS.map((e) => `signature.${f}.${e}`)),
    ],
    ['answers 500 to an unknown refund', { unknownRefund500: true }, ['results.REFUND.unknown-deposit']],
    ['writes isClientSafe as a string', { stringIsClientSafe: true }, ['pay.refused.insufficient-balance']],
    ['refuses with no error body', { noErrorBody: true }, ['pay.refused.insufficient-balance']],
  ];

  it.each(defects)('names the defect of an operator that %s', async (_name, defect, expected) => {
    const report = await runAgainst(defect);
    expect([...failedIds(report)].sort()).toEqual([...expected].sort());
    expect(report.failed).toBe(expected.length);
    expect(report.passed).toBe(CONFORMANCE_CHECK_IDS.length - expected.length);
    for (const c of report.checks.filter((x) => x.pass === false)) {
      expect(c.reason).toBeTruthy();
      expect(c.actual.status).not.toBeNull();
    }
  });

  it('says why an error body fails', async () => {
    const report = await runAgainst({ stringIsClientSafe: true });
    const c = report.checks.find((x) => x.id === 'pay.refused.insufficient-balance')!;
    expect(c.reason).toContain('errors[0].isClientSafe is a string');
    expect(c.evidence?.clientSees).toMatch(/^nothing reaches handleError/);
  });
});

describe('check reports', () => {
  it('emits progress per check, stores the report and exports it as JSON and Markdown', async () => {
    desk = openDesk();
    operator = closeAfterTest(await startOperator({ secret: SECRET, defects: { unknownRefund500: true } }));
    await desk.saveProfile({ name: 'p', secret: SECRET, operatorUrl: operator.url });
    const events: Array<{ runKey: string; index: number; total: number; id: string }> = [];
    desk.on((name, payload) => {
      if (name === 'check-progress') {
        const p = payload as { runKey: string; index: number; total: number; result: { id: string } };
        events.push({ runKey: p.runKey, index: p.index, total: p.total, id: p.result.id });
      }
    });
    const res = await desk.runCheck({ userId: USER });
    if (!res.ok) throw new Error(res.error.message);
    const report = res.value;
    expect(events.map((e) => e.id)).toEqual(report.checks.map((c) => c.id));
    expect(events.map((e) => e.index)).toEqual(report.checks.map((_c, i) => i));
    expect(new Set(events.map((e) => e.runKey))).toEqual(new Set([report.runId]));
    expect(events.every((e) => e.total === report.checks.length)).toBe(true);

    const list = await desk.listCheckReports();
    expect(list.ok && list.value.map((r) => r.id)).toEqual([report.id]);
    const stored = await desk.getCheckReport(report.id);
    expect(stored.ok && stored.value).toEqual(report);

    const json = await desk.exportCheckReport(report.id, 'json');
    expect(json.ok && JSON.parse(json.value)).toEqual(report);
    const md = await desk.exportCheckReport(report.id, 'markdown');
    expect(md.ok).toBe(true);
    if (!md.ok) return;
    expect(md.value).toContain(`# Conformance check #${report.id}`);
    expect(md.value).toContain('| FAIL | results.REFUND.unknown-deposit');
    expect(md.value).toContain('| PASS | pay.valid');
    expect(md.value).toContain('| N/A | duplicate.concurrent.pay.money');
    expect(md.value).toContain(`${operator.url}/platform/results`);
    expect(md.value).not.toContain(SECRET);
    expect(json.ok && json.value).not.toContain(SECRET);
  });

  it('needs a secret and a user', async () => {
    desk = openDesk();
    await desk.saveProfile({ name: 'p', operatorUrl: 'http://127.0.0.1:9' });
    const noSecret = await desk.runCheck({ userId: USER });
    expect(!noSecret.ok && noSecret.error.code).toBe('no-secret');
    const noUser = await desk.runCheck({ userId: ' ' });
    expect(!noUser.ok && noUser.error.code).toBe('bad-input');
  });
});

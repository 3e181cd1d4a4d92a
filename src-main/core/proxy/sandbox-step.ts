// Sandbox mode, once the callback is judged: the row, the sandbox's decision (its books, its findings) and
// the recorded answer are written in ONE transaction of the group commit, and the answer goes out once
// that is committed. All or nothing: an answer that could not be made durable is never sent, and its row
// is not half-written. The sandbox reads the body from the judge's parse, not a second one.
import type { ExchangeKind, Finding, ProxyFault } from '../../shared/model';
import type { Judgment } from '../capture';
import { boundAnswerNotes } from '../capture/bounds';
import type { SandboxCall } from '../sandbox';
import { sinksTheWrite, type CaptureTx } from '../store/contract/capture-writer';
import { jsonAnswer, proxyError, type ProxyAnswer } from './error-answers';
import { afterDelay, applyFault } from './fault-step';
import { messageOf, type InboundRecord } from './inbound-record';
import type { ProfileRoute } from './routes';

/** The sandbox answers the callback `judgment` judged (the fault, if any, first). */
export function answerInSandbox(x: InboundRecord, route: ProfileRoute | null, judgment: Judgment, body: Buffer, fault: ProxyFault | null): void {
  const { row } = judgment;
  if (fault && fault.action.type !== 'delay') {
    // The sandbox is not asked (its books stay as they are): the row is committed, then the fault applies.
    x.commit(row, () => applyFault(x, fault));
    return;
  }
  const call: SandboxCall = {
    kind: callbackKind(judgment.kind),
    method: x.req.method ?? 'GET',
    body,
    read: judgment.read,
    verdict: row.signature?.verdict ?? null,
    secretConfigured: route?.candidates().some((c) => c.primary) ?? false,
    book: route?.profile ?? '',
    at: x.at,
    secrets: x.secrets ?? [],
  };
  if (fault?.action.type === 'delay') {
    // As a slow operator: the row is committed now, the sandbox decides when the delay is over, and the
    // recorded duration includes the wait.
    const ms = fault.action.ms;
    x.commit(row, () => afterDelay(x, ms, () => decideLater(x, call)));
    return;
  }
  x.rowQueued = true;
  x.commits.write(
    (tx) => {
      const decided = decide(tx, call);
      // Recorded with the row, not through addFindings (which bounds them): a depositId a hostile body
      // made long is quoted in these notes, so they get the same bound here.
      const id = tx.rows.record(decided.findings.length > 0 ? { ...row, findings: [...row.findings, ...boundAnswerNotes(decided.findings)] } : row);
      tx.rows.finish(id, x.completion(decided.answer, decided.error));
      return { id, answer: decided.answer };
    },
    (err, out) => {
      if (err !== null || out === undefined) return x.dropped(err);
      x.recorded(out.id);
      x.guard(() => x.write(out.answer));
    },
  );
}

/** The row already committed: the decision and its recorded answer in one write, then the answer. */
function decideLater(x: InboundRecord, call: SandboxCall): void {
  const id = x.id;
  x.commits.write(
    (tx) => {
      const decided = decide(tx, call);
      if (decided.findings.length > 0) tx.rows.addFindings(id, decided.findings);
      tx.rows.finish(id, x.completion(decided.answer, decided.error));
      return decided.answer;
    },
    (err, answer) => {
      if (err !== null || answer === undefined) return x.dropped(err);
      x.guard(() => x.write(answer));
    },
  );
}

/** The sandbox's answer; a bug in it answers 500 (recorded), a storage failure sinks the whole write. */
function decide(tx: CaptureTx, call: SandboxCall): { answer: ProxyAnswer; findings: Finding[]; error: string | null } {
  try {
    const decided = tx.sandbox(call);
    return {
      answer: jsonAnswer(decided.answer.status, decided.answer.body, decided.answer.headers ?? []),
      findings: decided.findings,
      error: null,
    };
  } catch (err) {
    if (sinksTheWrite(err)) throw err;
    return { answer: proxyError('INTERNAL_ERROR'), findings: [], error: `internal error: ${messageOf(err)}` };
  }
}

/** The sandbox answers the callbacks; the token path and anything else are not its to answer. */
function callbackKind(kind: ExchangeKind): SandboxCall['kind'] {
  return kind === 'pay' || kind === 'results' ? kind : 'other';
}

// The reference operator: answers the two callbacks the way section 3 of the spec asks, so that the
// platform side can be tried against a well-behaved operator. Each callback is decided all or nothing
// against its books (books.ts): the desk's own run the decision in a transaction of theirs, a team's in
// the transaction of the proxy's write, so two copies of one pay arriving together still deduct once,
// even when another process (the CLI's `sandbox set-balance`) writes to the same books.
import type { ZodType } from 'zod';
import type { Finding, ResultValue, Verdict } from '../../shared/model';
import { inspect, payRequestSchema, resultRequestSchema } from '../protocol';
import type { CallbackPathKind } from '../protocol';
import { readJsonBody, type BodyRead } from '../protocol/json-body';
import { redactText } from '../redact';
import {
  insufficientBalance,
  invalidRequest,
  invalidSignature,
  methodNotAllowed,
  notFound,
  payAccepted,
  resultIgnored,
  resultProcessed,
  type SandboxAnswer,
} from './answers';
import { addExact, subtractExact } from './exact-money';
import type { OwnBooks, SandboxBooks } from './books';

export interface SandboxCall {
  kind: CallbackPathKind;
  method: string;
  body: Uint8Array;
  /** The judge's parse of the body, when it made one: read instead of parsing the body again. */
  read?: BodyRead | null;
  /** The signature verdict of the request (null where none was computed). */
  verdict: Verdict | null;
  /** With a secret configured, anything but a valid signature is refused (401). */
  secretConfigured: boolean;
  /** ISO time the request arrived. */
  at: string;
  /** Whose books: the profile the callback belongs to ('' without profiles). */
  book: string;
  /**
   * The stored secrets: an id that holds one (in any form) is booked, quoted and answered in its
   * redacted form, so that the books never hold a secret in clear.
   */
  secrets?: readonly string[];
}

export interface SandboxOutcome {
  answer: SandboxAnswer;
  /** What the sandbox noticed while deciding, for the exchange's findings. */
  findings: Finding[];
}

const note = (level: Finding['level'], path: string, message: string): Finding => ({ level, path, message: `sandbox operator: ${message}` });

type Parsed<T> = { ok: true; value: T } | { ok: false; reason: string };

function parse<T>(call: SandboxCall, schema: ZodType<T>): Parsed<T> {
  const read = call.read ?? readJsonBody(call.body);
  if (!read.ok) return { ok: false, reason: 'the body is not a JSON document' };
  const checked = schema.safeParse(read.value);
  if (!checked.success) return { ok: false, reason: 'the body does not match the message of the spec' };
  const ids = checked.data as { userId?: unknown; depositId?: unknown };
  // An empty id cannot key a balance or a deposit: refuse it rather than book money under "".
  if (ids.userId === '' || ids.depositId === '') return { ok: false, reason: 'userId and depositId must not be empty' };
  return { ok: true, value: withRedactedIds(checked.data, call.secrets ?? []) };
}

/** A finding may quote any field of the body (a currency, an amount): redacted like the row's own. */
function withRedactedFindings(outcome: SandboxOutcome, secrets: readonly string[]): SandboxOutcome {
  if (secrets.length === 0 || outcome.findings.length === 0) return outcome;
  return { ...outcome, findings: outcome.findings.map((f) => ({ ...f, path: redactText(f.path, secrets), message: redactText(f.message, secrets) })) };
}

function withRedactedIds<T>(message: T, secrets: readonly string[]): T {
  if (secrets.length === 0) return message;
  const ids = message as { userId?: unknown; depositId?: unknown };
  const userId = typeof ids.userId === 'string' ? redactText(ids.userId, secrets) : ids.userId;
  const depositId = typeof ids.depositId === 'string' ? redactText(ids.depositId, secrets) : ids.depositId;
  return userId === ids.userId && depositId === ids.depositId ? message : { ...message, userId, depositId };
}

export class SandboxOperator {
  constructor(readonly books: OwnBooks) {}

  /** Decides against the desk's own books, in one transaction of theirs. */
  handle(call: SandboxCall): SandboxOutcome {
    return this.answer(call, () => this.books.atomically(() => this.decideWith(this.books, call)));
  }

  /**
   * Decides against other books (a team's, in PostgreSQL), inside the transaction their owner holds:
   * what was read and written commits or rolls back with the capture's row.
   */
  handleWith(books: SandboxBooks, call: SandboxCall): SandboxOutcome {
    return this.answer(call, () => this.decideWith(books, call));
  }

  private answer(call: SandboxCall, decide: () => SandboxOutcome): SandboxOutcome {
    if (call.kind === 'other') return { answer: notFound(), findings: [] };
    if (call.method !== 'POST') return { answer: methodNotAllowed(), findings: [] };
    if (call.secretConfigured && call.verdict !== 'valid') {
      return { answer: invalidSignature(), findings: [note('info', '$', `refused with 401: the signature is ${call.verdict ?? 'absent'}`)] };
    }
    return withRedactedFindings(decide(), call.secrets ?? []);
  }

  private decideWith(books: SandboxBooks, call: SandboxCall): SandboxOutcome {
    return call.kind === 'pay' ? this.pay(books, call) : this.results(books, call);
  }

  private pay(books: SandboxBooks, call: SandboxCall): SandboxOutcome {
    const parsed = parse(call, payRequestSchema);
    if (!parsed.ok) return { answer: invalidRequest(), findings: [note('info', '$', `refused with 400: ${parsed.reason}`)] };
    const { userId, depositId, amount, currency } = parsed.value;
    const findings: Finding[] = [];

    const seen = books.deposit(call.book, depositId);
    if (seen) {
      findings.push(note('info', '$.depositId', `depositId ${JSON.stringify(depositId)} was already paid: not deducted again, the first answer repeated`));
      const differs = (['userId', 'amount', 'currency'] as const).filter((k) => seen[k] !== parsed.value[k]);
      if (differs.length > 0) {
        findings.push(note('warning', '$', `this pay reuses depositId ${JSON.stringify(depositId)} with a different ${differs.join(', ')} than the first pay`));
      }
      return { answer: seen.payAnswer, findings };
    }

    const balance = books.balanceOf(call.book, userId);
    if (balance < amount) {
      // A refused pay is not stored: nothing was deducted, so a later retry is judged afresh.
      return { answer: insufficientBalance(), findings: [note('info', '$.amount', `refused: balance ${balance} is below the amount ${amount}`)] };
    }
    const after = subtractExact(balance, amount);
    books.setBalance(call.book, userId, after);
    const answer = payAccepted(depositId, userId, after);
    books.addDeposit(call.book, { depositId, userId, amount, currency, at: call.at, answer });
    return { answer, findings };
  }

  private results(books: SandboxBooks, call: SandboxCall): SandboxOutcome {
    const unknownRefund = this.unknownRefund(books, call);
    if (unknownRefund) return unknownRefund;
    const parsed = parse(call, resultRequestSchema);
    if (!parsed.ok) return { answer: invalidRequest(), findings: [note('info', '$', `refused with 400: ${parsed.reason}`)] };
    const message = parsed.value;
    const { depositId, result } = message;
    const findings: Finding[] = [];

    const deposit = books.deposit(call.book, depositId);
    if (!deposit) {
      findings.push(
        result === 'REFUND'
          ? note('info', '$.depositId', 'REFUND of a depositId that was never stored: ignored and answered 200, as section 3 of the spec asks')
          : note('warning', '$.depositId', `${result} for depositId ${JSON.stringify(depositId)}, which was never paid: nothing done, answered 200`),
      );
      return { answer: resultIgnored(depositId, result), findings };
    }

    if (deposit.outcome !== null) {
      findings.push(
        deposit.outcome === result
          ? note(
              'info',
              '$.depositId',
              `results for depositId ${JSON.stringify(depositId)} were already processed: not processed twice, the first answer repeated`,
            )
          : note('warning', '$.result', `depositId ${JSON.stringify(depositId)} was already settled as ${deposit.outcome}; this ${result} was not processed`),
      );
      return { answer: deposit.resultsAnswer ?? resultIgnored(depositId, result), findings };
    }

    if (message.userId !== deposit.userId) {
      findings.push(
        note(
          'warning',
          '$.userId',
          `userId ${JSON.stringify(message.userId)} differs from the pay's ${JSON.stringify(deposit.userId)}; the paying user is credited`,
        ),
      );
    }
    const credit = this.creditOf(message, deposit.amount, deposit.currency, findings);
    const balance = books.balanceOf(call.book, deposit.userId);
    const after = credit === 0 ? balance : addExact(balance, credit);
    if (credit !== 0) books.setBalance(call.book, deposit.userId, after);
    const answer = resultProcessed(depositId, result, deposit.userId, after);
    books.settle(call.book, depositId, result as ResultValue, call.at, answer);
    return { answer, findings };
  }

  /**
   * Section 3 to the letter: a REFUND of a depositId never stored is ignored with 200, whatever else
   * its body lacks (the operator has nothing to refund, so nothing else matters). The finding still
   * names what the body misses.
   */
  private unknownRefund(books: SandboxBooks, call: SandboxCall): SandboxOutcome | null {
    const { body } = call;
    const read = call.read ?? readJsonBody(body);
    if (!read.ok || typeof read.value !== 'object' || read.value === null || Array.isArray(read.value)) return null;
    const { result, depositId } = withRedactedIds(read.value as Record<string, unknown>, call.secrets ?? []);
    if (result !== 'REFUND' || typeof depositId !== 'string' || depositId === '' || books.deposit(call.book, depositId)) return null;
    const broken = [
      ...new Set(
        inspect('results', body)
          .filter((f) => f.level === 'error')
          .map((f) => f.path),
      ),
    ];
    const lacking = broken.length > 0 ? ` (although the body has errors at ${broken.join(', ')})` : '';
    return {
      answer: resultIgnored(depositId, 'REFUND'),
      findings: [note('info', '$.depositId', `REFUND of a depositId that was never stored: ignored and answered 200, as section 3 of the spec asks${lacking}`)],
    };
  }

  /** What a result credits: WIN and DRAW their amount, LOSE nothing, REFUND the amount stored with the pay. */
  private creditOf(
    message: { result: ResultValue; amount?: number; currency?: string },
    storedAmount: number,
    storedCurrency: string,
    findings: Finding[],
  ): number {
    if (message.currency !== undefined && message.currency !== storedCurrency) {
      findings.push(note('warning', '$.currency', `currency ${JSON.stringify(message.currency)} differs from the pay's ${JSON.stringify(storedCurrency)}`));
    }
    switch (message.result) {
      case 'WIN':
      case 'DRAW':
        return message.amount ?? 0;
      case 'LOSE':
        return 0;
      case 'REFUND':
        if (message.amount !== undefined && message.amount !== storedAmount) {
          findings.push(note('warning', '$.amount', `REFUND amount ${message.amount} differs from the stored ${storedAmount}; the stored amount is refunded`));
        }
        return storedAmount;
    }
  }
}

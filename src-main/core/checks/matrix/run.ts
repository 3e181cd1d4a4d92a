// Runs generated checks against an operator: set-up steps one after the other, a balance reading,
// the judged steps (copies of one at once for a concurrent duplicate), a second reading. Each check
// gives a result for its answer and, where its rule is about money, one for the money. The answer's
// verdict reads status first, the money second, words in the body last. The run owns the test user's
// state: a check that would spend more than the user has is blocked before it sends anything, a
// refused variant or a pay refused for the balance is followed by its plain control before a cause is
// named, and every deposit a check leaves open is refunded after its readings, so the run's cost stays
// bounded and no step of another check falls between the two readings of a delta.
import type { CheckEvidence, CheckOutcome, CheckResult } from '../../../shared/model';
import type { BalanceEvidence, BalanceObserver } from '../../balance/observer';
import type { OutboundDeps } from '../../outbound/deps';
import { EXPECTATION_TEXT } from '../expectation';
import { notActedWords } from '../judge';
import { describeOutcome, is2xx, sendStep, type CaseStep, type StepEnv, type StepOutcome } from '../steps';
import { judgeAnswer, notServed, otherDepositNamed, type RunMemory } from './answer-verdict';
import { BalanceReadings } from './balances';
import { cleanupSteps } from './cleanup';
import { controlVerdict, plainControl, saysInsufficientBalance, type ControlVerdict } from './controls';
import { messageBytes } from './messages';
import { judgeMoney, type MoneyVerdict } from './money-verdict';
import { describeStep } from './sent';
import { needOf } from './spending';
import { moneyIdOf, type MatrixCheck, type MatrixScope } from './types';

export interface MatrixRunDeps {
  ctx: OutboundDeps;
  env: StepEnv;
  scope: MatrixScope;
  observer: BalanceObserver;
  /** Called with each result as it is decided. */
  onResult(result: CheckResult): void;
}

interface Sent {
  step: CaseStep;
  outcomes: StepOutcome[];
}

type Blocked = { reason: string; blockedBy: { step: string; answer: string } };

/** A control sent after a refusal, and what it says. */
interface Control {
  sent: Sent[];
  verdict: ControlVerdict;
}

const wantsAcceptance = (step: CaseStep): boolean => step.needs === 'accepted' || step.expect === 'accepted' || step.expect === '2XX';

export class MatrixRun {
  private readonly memory: RunMemory = { answered2xx: new Set() };
  private readonly readings: BalanceReadings;
  /** Why the run stopped spending (the user's balance ran out), once it has; checks that spend are blocked from then on. */
  private exhausted: Blocked | null = null;
  readonly results: CheckResult[] = [];

  constructor(private readonly deps: MatrixRunDeps) {
    this.readings = new BalanceReadings(deps.observer, deps.scope.userId);
  }

  private async send(step: CaseStep): Promise<StepOutcome[]> {
    const copies = Math.max(1, step.copies ?? 1);
    const one = async (i: number): Promise<StepOutcome> => {
      const label = copies > 1 ? `${step.label} (copy ${i + 1} of ${copies})` : step.label;
      const o = await sendStep(this.deps.ctx, this.deps.env, { ...step, label });
      if (is2xx(o.status)) this.memory.answered2xx.add(o.path);
      this.readings.noteAnswer(o.body, o.sentIds.includes(this.deps.scope.userId));
      return o;
    };
    return Promise.all(Array.from({ length: copies }, (_, i) => one(i)));
  }

  private blockedByDependency(check: MatrixCheck): Blocked | null {
    for (const id of check.dependsOn ?? []) {
      const dep = this.results.find((r) => r.id === id);
      if (!dep || dep.outcome === 'pass') continue;
      const answer =
        dep.actual.status === null
          ? `no answer (${dep.actual.error ?? 'unknown error'})`
          : describeOutcome({ status: dep.actual.status, body: dep.actual.body, error: null }, 80);
      return { reason: `depends on check ${id}, which did not pass (${dep.outcome}): ${dep.reason ?? answer}`, blockedBy: { step: id, answer } };
    }
    return null;
  }

  private blockedBySetUp(sent: Sent[]): Blocked | null {
    for (const { step, outcomes } of sent) {
      if (!step.needs) continue;
      for (const o of outcomes) {
        const j = judgeAnswer(step.needs, o, this.memory);
        if (j.pass) continue;
        const answer = describeOutcome(o, 80);
        return {
          reason: `depends on "${o.label}", which did not get ${EXPECTATION_TEXT[step.needs]}: ${j.reason ?? answer}`,
          blockedBy: { step: o.label, answer },
        };
      }
    }
    return null;
  }

  /**
   * Blocked before anything is sent when the check would spend more than the user has left (or has
   * nothing left); otherwise whether the balance was seen to cover the check.
   */
  private async balanceGate(need: number): Promise<{ blocked: Blocked } | { covered: boolean }> {
    if (need <= 0) return { covered: true };
    if (this.exhausted) return { blocked: this.exhausted };
    if (!this.deps.observer.available) return { covered: false };
    const now = await this.readings.now();
    if (now.kind !== 'reading') return { covered: false };
    if (Number(now.value) >= need) return { covered: true };
    this.exhausted = {
      reason: `the test user's balance ran out: ${now.value} left, the step needed ${need}`,
      blockedBy: { step: 'the balance before the check', answer: `${now.value} (from the ${now.source})` },
    };
    return { blocked: this.exhausted };
  }

  /** Sends a list of steps one after the other. */
  private async sendAll(steps: readonly CaseStep[]): Promise<Sent[]> {
    const sent: Sent[] = [];
    for (const step of steps) sent.push({ step, outcomes: await this.send(step) });
    return sent;
  }

  /** Refunds every deposit the sent steps left open. */
  private cleanUp(sent: readonly Sent[]): Promise<Sent[]> {
    return this.sendAll(cleanupSteps(sent, (userId, depositId) => messageBytes('REFUND', { ...this.deps.scope, userId }, depositId)));
  }

  /**
   * The control after a refusal that could have another cause: a variant refused, or a pay refused
   * for the balance. The plain form, fresh ids, same user, right after the check's own clean-up (so
   * the stakes it held are back); null when none is due. A balance refusal the run could not see
   * coming is not confirmed by an accepted control: the check may simply have needed more.
   */
  private async controlOf(check: MatrixCheck, sent: Sent[], blocked: Blocked | null, covered: boolean): Promise<Control | null> {
    const starved = sent.some((s) => s.step.to === 'pay' && wantsAcceptance(s.step) && s.outcomes.some(saysInsufficientBalance));
    const variantRefused =
      check.control !== undefined &&
      blocked === null &&
      sent.some((s) => s.step.expect && wantsAcceptance(s.step) && s.outcomes.some((o) => o.status !== null && !is2xx(o.status)));
    if (!starved && !variantRefused) return null;
    const controlSent = await this.sendAll(plainControl(check.control ?? 'pay', this.deps.scope));
    let verdict = controlVerdict(controlSent.flatMap((s) => s.outcomes));
    if (verdict.kind === 'starved') {
      this.exhausted = {
        reason: `the test user's balance ran out: ${verdict.line}`,
        blockedBy: { step: 'the plain control pay', answer: verdict.line },
      };
    } else if (verdict.kind === 'confirmed' && starved && !covered) {
      verdict = { kind: 'refused', line: `${verdict.line}, but the run could not see whether the balance covered the check` };
    }
    return { sent: controlSent, verdict };
  }

  /** Runs one check and returns its results (the answer's, then the money's). */
  async run(check: MatrixCheck): Promise<CheckResult[]> {
    const built = check.build(this.deps.scope);
    const gate = await this.balanceGate(needOf(built.steps, this.deps.scope.userId));
    if ('blocked' in gate) return this.publish(this.resultsOf(check, [], gate.blocked, null, null, []));
    const judgedFrom = built.steps.findIndex((s) => !s.needs);
    const setUp = built.steps.slice(0, judgedFrom < 0 ? built.steps.length : judgedFrom);
    const judged = built.steps.slice(setUp.length);
    // Every step is sent even when the check is blocked: the answers are the evidence of why.
    const sent: Sent[] = await this.sendAll(setUp);
    const watchMoney = check.money !== undefined && built.delta !== undefined && this.deps.observer.available;
    const before: BalanceEvidence | null = watchMoney ? await this.readings.now() : null;
    sent.push(...(await this.sendAll(judged)));
    const after: BalanceEvidence | null = watchMoney ? await this.readings.now() : null;

    // After the readings: neither the clean-up's refunds nor a control move a delta the check judges.
    const cleanup = await this.cleanUp(sent);
    let blocked = this.blockedByDependency(check) ?? this.blockedBySetUp(sent);
    const control = await this.controlOf(check, sent, blocked, gate.covered);
    if (control) cleanup.push(...(await this.cleanUp(control.sent)));
    if (control?.verdict.kind === 'starved') blocked = this.exhausted;
    const expected = this.expectedDelta(built.delta, sent);
    const money = check.money && expected !== undefined ? judgeMoney(expected.delta, before, after, this.deps.observer.howToObserve, expected.note) : null;
    return this.publish(this.resultsOf(check, sent, blocked, money, control, cleanup));
  }

  /** What the judged steps must move: the rule's delta, or nothing when every answer refused them (refused means not charged). */
  private expectedDelta(delta: number | undefined, sent: Sent[]): { delta: number; note?: string } | undefined {
    if (delta === undefined) return undefined;
    const judged = sent.filter((s) => s.step.expect && wantsAcceptance(s.step));
    const refusedAll = judged.length > 0 && judged.every((s) => s.outcomes.every((o) => o.status !== null && !is2xx(o.status)));
    return refusedAll && delta !== 0 ? { delta: 0, note: 'every judged request was refused, and a refusal moves nothing' } : { delta };
  }

  private publish(results: CheckResult[]): CheckResult[] {
    for (const r of results) {
      this.results.push(r);
      this.deps.onResult(r);
    }
    return results;
  }

  private resultsOf(
    check: MatrixCheck,
    sent: Sent[],
    blocked: Blocked | null,
    money: MoneyVerdict | null,
    control: Control | null,
    cleanup: Sent[],
  ): CheckResult[] {
    const extra = [...cleanup, ...(control?.sent ?? [])];
    const all = [...sent, ...extra].flatMap((s) => s.outcomes);
    const judged = sent.filter((s) => s.step.expect).flatMap((s) => s.outcomes.map((o) => ({ o, expect: s.step.expect! })));
    const lines = [...sent, ...extra].map((s) => describeStep(s.step, this.deps.env));
    const statuses = judged.map(({ o }) => o.status);
    let failing: { o: StepOutcome; reason: string } | null = null;
    let clientSees: string | undefined;
    for (const { o, expect } of judged) {
      const j = judgeAnswer(expect, o, this.memory);
      clientSees ??= j.clientSees;
      if (!j.pass && !failing) failing = { o, reason: `${o.label}: ${j.reason ?? 'not as expected'}` };
    }
    // An answer about another deposit is not an answer to this request, whatever its status.
    for (const { o } of judged) {
      const other = otherDepositNamed(o);
      if (other !== null && !failing) failing = { o, reason: `${o.label}: answered ${o.status} naming depositId ${other}, another deposit than the one sent` };
    }
    // Words last: "ignored" in a 2XX matters only where the rule is that the deposit is processed,
    // and only when the money does not show it was.
    const words = judged
      .filter(({ expect }) => expect === 'accepted')
      .map(({ o }) => ({ o, quote: notActedWords(o) }))
      .filter((w) => w.quote !== null);
    if (!failing && words.length > 0 && money?.outcome !== 'pass') {
      const w = words[0]!;
      failing = {
        o: w.o,
        reason: `${w.o.label}: answered ${w.o.status}, but the body says "${w.quote}": the request was not processed${money ? ' (and the money does not show otherwise)' : ''}`,
      };
    }
    const shown = failing?.o ?? judged[judged.length - 1]?.o ?? all[all.length - 1];
    const actual: CheckResult['actual'] = { status: shown?.status ?? null, body: shown?.body ?? null, ...(shown?.error ? { error: shown.error } : {}) };
    const evidence: CheckEvidence = {
      statuses,
      ...(words.length > 0 ? { words: words.map((w) => w.quote!) } : {}),
      ...(clientSees ? { clientSees } : {}),
    };
    const exchangeIds = all.map((o) => o.exchangeId);
    // A case the spec leaves open judges no step: its answers (after the set-up's) are what a person reads.
    const read = judged.length > 0 ? judged.map(({ o }) => o) : sent.filter((s) => !s.step.needs).flatMap((s) => s.outcomes);
    const observed = read.map((o) => `${o.label}: ${describeOutcome(o, 80)}`).join('; ') || 'nothing sent';
    const base = { rule: check.rule, sent: lines, exchangeIds, actual };

    // A refusal is the operator's fault only when its plain control was accepted; the desk's advice is
    // never the spec's rule (but a path not served, or no answer, fails any check).
    const unconfirmed = failing !== null && control !== null && control.verdict.kind === 'refused';
    const advice = check.rule.source === 'advice' && failing !== null && failing.o.status !== null && !notServed(failing.o, this.memory);
    const outcome: CheckOutcome = blocked ? 'blocked' : !failing ? 'pass' : unconfirmed ? 'inconclusive' : advice ? 'warning' : 'fail';
    const reason = blocked
      ? blocked.reason
      : !failing
        ? undefined
        : control
          ? `${failing.reason}, and ${control.verdict.line}${unconfirmed ? ', so the refusal names no cause' : ''}`
          : failing.reason;
    const answer: CheckResult = {
      id: check.id,
      title: check.title,
      pass: outcome === 'pass' ? true : outcome === 'fail' || outcome === 'blocked' ? false : null,
      outcome,
      expected: check.expectation ? EXPECTATION_TEXT[check.expectation] : 'not judged',
      ...base,
      observed:
        words.length > 0 && outcome === 'pass'
          ? `${observed}; the body's words "${words[0]!.quote}" are outweighed by the balance, which shows it was processed`
          : observed,
      evidence,
      ...(reason ? { reason } : {}),
      ...(blocked ? { blockedBy: blocked.blockedBy } : {}),
    };
    if (!check.money) return [answer];
    if (!money) {
      // Blocked before anything was sent: the money says nothing either.
      return blocked ? [answer, { ...answer, id: moneyIdOf(check.id), title: check.money.title, rule: check.money.rule, expected: 'not judged' }] : [answer];
    }
    // A delta beside an unconfirmed refusal or a missed advice says no more than the answer does.
    const moneyOutcome: CheckOutcome = blocked
      ? 'blocked'
      : money.outcome === 'fail' && (outcome === 'inconclusive' || outcome === 'warning')
        ? outcome
        : money.outcome;
    return [
      answer,
      {
        id: moneyIdOf(check.id),
        title: check.money.title,
        pass: moneyOutcome === 'pass' ? true : moneyOutcome === 'fail' || moneyOutcome === 'blocked' ? false : null,
        outcome: moneyOutcome,
        expected: `the balance changes by exactly ${money.evidence.expectedDelta} (in the profile's amounts)`,
        ...base,
        rule: check.money.rule,
        observed: money.observed,
        evidence: { statuses, ...money.evidence },
        ...(blocked
          ? { reason: blocked.reason, blockedBy: blocked.blockedBy }
          : moneyOutcome !== money.outcome
            ? {
                reason: `${money.reason ?? money.observed}, beside an answer that is ${outcome === 'warning' ? "a warning on the desk's advice" : 'inconclusive'}`,
              }
            : money.reason
              ? { reason: money.reason }
              : {}),
        ...(moneyOutcome === 'not-observable' && money.howToObserve ? { howToObserve: money.howToObserve } : {}),
      },
    ];
  }
}

// Runs generated checks against an operator: set-up steps one after the other, a balance reading,
// the judged steps (copies of one at once for a concurrent duplicate), a second reading. Each check
// gives a result for its answer and, where its rule is about money, one for the money. The answer's
// verdict reads status first, the money second, words in the body last.
import type { CheckEvidence, CheckOutcome, CheckResult } from '../../../shared/model';
import type { BalanceEvidence, BalanceObserver } from '../../balance/observer';
import type { OutboundDeps } from '../../outbound/deps';
import { EXPECTATION_TEXT } from '../expectation';
import { notActedWords } from '../judge';
import { describeOutcome, is2xx, sendStep, type CaseStep, type StepEnv, type StepOutcome } from '../steps';
import { judgeAnswer, type RunMemory } from './answer-verdict';
import { BalanceReadings } from './balances';
import { judgeMoney, type MoneyVerdict } from './money-verdict';
import { describeStep } from './sent';
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

export class MatrixRun {
  private readonly memory: RunMemory = { answered2xx: new Set() };
  private readonly readings: BalanceReadings;
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

  /** Runs one check and returns its results (the answer's, then the money's). */
  async run(check: MatrixCheck): Promise<CheckResult[]> {
    const built = check.build(this.deps.scope);
    const judgedFrom = built.steps.findIndex((s) => !s.needs);
    const setUp = built.steps.slice(0, judgedFrom < 0 ? built.steps.length : judgedFrom);
    const judged = built.steps.slice(setUp.length);
    const sent: Sent[] = [];
    // Every step is sent even when the check is blocked: the answers are the evidence of why.
    for (const step of setUp) sent.push({ step, outcomes: await this.send(step) });
    const watchMoney = check.money !== undefined && built.delta !== undefined && this.deps.observer.available;
    const before: BalanceEvidence | null = watchMoney ? await this.readings.now() : null;
    for (const step of judged) sent.push({ step, outcomes: await this.send(step) });
    const after: BalanceEvidence | null = watchMoney ? await this.readings.now() : null;

    const blocked = this.blockedByDependency(check) ?? this.blockedBySetUp(sent);
    const money = check.money && built.delta !== undefined ? judgeMoney(built.delta, before, after, this.deps.observer.howToObserve) : null;
    const results = this.resultsOf(check, sent, blocked, money);
    for (const r of results) {
      this.results.push(r);
      this.deps.onResult(r);
    }
    return results;
  }

  private resultsOf(check: MatrixCheck, sent: Sent[], blocked: Blocked | null, money: MoneyVerdict | null): CheckResult[] {
    const all = sent.flatMap((s) => s.outcomes);
    const judged = sent.filter((s) => s.step.expect).flatMap((s) => s.outcomes.map((o) => ({ o, expect: s.step.expect! })));
    const lines = sent.map((s) => describeStep(s.step, this.deps.env));
    const statuses = judged.map(({ o }) => o.status);
    let failing: { o: StepOutcome; reason: string } | null = null;
    let clientSees: string | undefined;
    for (const { o, expect } of judged) {
      const j = judgeAnswer(expect, o, this.memory);
      clientSees ??= j.clientSees;
      if (!j.pass && !failing) failing = { o, reason: `${o.label}: ${j.reason ?? 'not as expected'}` };
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

    const outcome: CheckOutcome = blocked ? 'blocked' : failing ? 'fail' : 'pass';
    const answer: CheckResult = {
      id: check.id,
      title: check.title,
      pass: outcome === 'pass',
      outcome,
      expected: check.expectation ? EXPECTATION_TEXT[check.expectation] : 'not judged',
      ...base,
      observed:
        words.length > 0 && outcome === 'pass'
          ? `${observed}; the body's words "${words[0]!.quote}" are outweighed by the balance, which shows it was processed`
          : observed,
      evidence,
      ...(blocked ? { reason: blocked.reason, blockedBy: blocked.blockedBy } : failing ? { reason: failing.reason } : {}),
    };
    if (!check.money || !money) return [answer];
    const moneyOutcome: CheckOutcome = blocked ? 'blocked' : money.outcome;
    return [
      answer,
      {
        id: moneyIdOf(check.id),
        title: check.money.title,
        pass: moneyOutcome === 'pass' ? true : moneyOutcome === 'not-observable' ? null : false,
        outcome: moneyOutcome,
        expected: `the balance changes by exactly ${money.evidence.expectedDelta} (in the profile's amounts)`,
        ...base,
        rule: check.money.rule,
        observed: money.observed,
        evidence: { statuses, ...money.evidence },
        ...(blocked ? { reason: blocked.reason, blockedBy: blocked.blockedBy } : money.reason ? { reason: money.reason } : {}),
        ...(moneyOutcome === 'not-observable' && money.howToObserve ? { howToObserve: money.howToObserve } : {}),
      },
    ];
  }
}

// The balance readings of a run: the probe's when it has one, else the last balance an answer carried
// (valid only until an answer without one arrives, since that request may have moved the money).
import type { BalanceEvidence, BalanceObserver } from '../../balance/observer';

export class BalanceReadings {
  private lastFromAnswer: string | null = null;

  constructor(
    readonly observer: BalanceObserver,
    private readonly userId: string,
  ) {}

  /** Notes the balance an answer carries for the run's user, or forgets the last one when it carries none. */
  noteAnswer(body: string | null, forUser: boolean): void {
    if (!forUser) return;
    const reading = body === null ? null : this.observer.fromAnswer(new TextEncoder().encode(body));
    this.lastFromAnswer = reading?.kind === 'reading' ? reading.value : null;
  }

  /** The balance now: from the probe, else from the last answer that carried it. */
  async now(): Promise<BalanceEvidence> {
    const probed = await this.observer.read(this.userId);
    if (probed.kind === 'reading') return probed;
    if (this.lastFromAnswer !== null) return { kind: 'reading', value: this.lastFromAnswer, source: 'answer' };
    return probed;
  }
}

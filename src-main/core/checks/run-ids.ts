// Fresh, recognisable ids for one run: every depositId and roomId starts with the run's prefix, so
// an operator can find (and clean up) what a check or an edge case created.
import { randomBytes } from 'node:crypto';
import { freshTournamentId } from '../protocol';

/** Short, unique enough, and sortable by time: base-36 milliseconds plus 16 random bits. */
export function newRunId(): string {
  return `${Date.now().toString(36)}${randomBytes(2).toString('hex')}`;
}

export class RunIds {
  private readonly used = new Map<string, number>();

  constructor(readonly prefix: string) {}

  /** `<prefix><label>`, with a counter when a label repeats within the run. */
  deposit(label: string): string {
    const n = (this.used.get(label) ?? 0) + 1;
    this.used.set(label, n);
    return `${this.prefix}${label}${n > 1 ? `-${n}` : ''}`;
  }

  room(label: string): string {
    return this.deposit(`room-${label}`);
  }

  /** tournamentId must be a bare UUID v4, so it cannot carry the prefix. */
  tournament(): string {
    return freshTournamentId();
  }
}

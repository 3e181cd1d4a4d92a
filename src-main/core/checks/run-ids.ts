// Fresh, recognisable ids for one run. Every depositId and roomId is "wd-", the run's 16 hex digits,
// then 16 hex digits of its own: 35 characters, so it fits the VARCHAR(36) operators keep ids in, and
// an operator finds (and cleans up) what a check or an edge case created with LIKE 'wd-<runId>%'.
import { randomBytes } from 'node:crypto';
import { freshTournamentId } from '../protocol';

/** 16 hex digits, sortable by time: 12 of milliseconds since 1970, then 16 random bits. */
export function newRunId(): string {
  return `${Date.now().toString(16).padStart(12, '0')}${randomBytes(2).toString('hex')}`;
}

/** The prefix of every id a run invents. */
export function runIdPrefix(runId: string): string {
  return `wd-${runId}`;
}

export class RunIds {
  constructor(readonly prefix: string) {}

  /**
   * A fresh id. The label says what the id is for where it is made; it stays out of the id, which
   * would otherwise outgrow 36 characters (the step labels of a report name each request instead).
   */
  deposit(_label: string): string {
    return `${this.prefix}${randomBytes(8).toString('hex')}`;
  }

  room(label: string): string {
    return this.deposit(`room-${label}`);
  }

  /** tournamentId must be a bare UUID v4, so it cannot carry the prefix. */
  tournament(): string {
    return freshTournamentId();
  }
}

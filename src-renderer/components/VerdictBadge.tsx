import type { Verdict } from '../../src-main/shared/model';
import { Badge, type Tone } from './Badge';

const LOOK: Record<Verdict, { tone: Tone; icon: string; word: string; title: string }> = {
  valid: { tone: 'green', icon: '✓', word: 'valid', title: 'The signature matches the body' },
  mismatch: { tone: 'red', icon: '✗', word: 'mismatch', title: 'The signature does not match the body' },
  missing: { tone: 'amber', icon: '∅', word: 'missing', title: 'No x-server-authorization header' },
  malformed: { tone: 'purple', icon: '!', word: 'malformed', title: 'The header is not 64 hex characters' },
  'no-secret': { tone: 'grey', icon: '?', word: 'no secret', title: 'No signing secret configured: cannot check' },
};

/** A signature verdict: a colour AND a word, so it reads without colour vision too. */
export function VerdictBadge(props: { verdict: Verdict | null; testId?: string }) {
  if (props.verdict === null) {
    return (
      <Badge tone="grey" testId={props.testId} data={{ verdict: 'none' }} title="No signature applies">
        n/a
      </Badge>
    );
  }
  const look = LOOK[props.verdict];
  return (
    <Badge tone={look.tone} testId={props.testId} data={{ verdict: props.verdict }} title={look.title}>
      <span aria-hidden="true">{look.icon}</span> {look.word}
    </Badge>
  );
}

import type { Diagnosis, Verdict } from '../../src-main/shared/model';
import { verdictWords } from '../../src-main/shared/verdict-words';
import { Badge, type Tone } from './Badge';

const LOOK: Record<Verdict, { tone: Tone; icon: string; word: string; title: string }> = {
  valid: { tone: 'green', icon: '✓', word: 'valid', title: 'The signature matches the body' },
  mismatch: { tone: 'red', icon: '✗', word: 'mismatch', title: 'The signature does not match the body' },
  missing: { tone: 'amber', icon: '∅', word: 'missing', title: 'No x-server-authorization header' },
  malformed: { tone: 'purple', icon: '!', word: 'malformed', title: 'The header is not 64 hex characters' },
  'no-secret': { tone: 'grey', icon: '?', word: 'no secret', title: 'No signing secret configured: cannot check' },
};

/** A signature verdict: a colour AND a word, so it reads without colour vision too. */
/** With the diagnosis, the title agrees with what it found (an uppercase-hex mismatch is not "does not match"). */
export function VerdictBadge(props: { verdict: Verdict | null; diagnosis?: Pick<Diagnosis, 'match'> | null; testId?: string }) {
  if (props.verdict === null) {
    return (
      <Badge tone="grey" testId={props.testId} data={{ verdict: 'none' }} title="No signature applies">
        n/a
      </Badge>
    );
  }
  const look = LOOK[props.verdict];
  const words = props.diagnosis ? verdictWords(props.verdict, props.diagnosis) : null;
  const title = words ? `${words[0]!.toUpperCase()}${words.slice(1)}` : look.title;
  return (
    <Badge tone={look.tone} testId={props.testId} data={{ verdict: props.verdict }} title={title}>
      <span aria-hidden="true">{look.icon}</span> {look.word}
    </Badge>
  );
}

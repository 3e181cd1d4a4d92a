import type { FindingLevel } from '../../src-main/shared/model';
import { Badge, type Tone } from './Badge';

const TONE: Record<FindingLevel, Tone> = { error: 'red', warning: 'amber', info: 'blue' };

export function FindingLevelBadge(props: { level: FindingLevel }) {
  return (
    <Badge tone={TONE[props.level]} data={{ level: props.level }}>
      {props.level}
    </Badge>
  );
}

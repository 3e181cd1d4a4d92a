import type { Finding } from '../../src-main/shared/model';
import { Badge } from './Badge';

/** "2 errors" (red), "3 notes" (amber) or, with none, the green `none` text. */
export function FindingsCountBadge(props: { findings: readonly Finding[]; none: string }) {
  const { findings } = props;
  if (findings.length === 0) return <Badge tone="green">{props.none}</Badge>;
  const errors = findings.filter((f) => f.level === 'error').length;
  return (
    <Badge tone={errors > 0 ? 'red' : 'amber'}>
      {errors > 0 ? `${errors} error${errors === 1 ? '' : 's'}` : `${findings.length} note${findings.length === 1 ? '' : 's'}`}
    </Badge>
  );
}

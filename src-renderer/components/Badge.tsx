import type { ReactNode } from 'react';

export type Tone = 'green' | 'red' | 'amber' | 'grey' | 'blue' | 'purple';

export function Badge(props: { tone: Tone; children: ReactNode; title?: string; testId?: string | undefined; data?: Record<string, string> }) {
  const dataAttrs = Object.fromEntries(Object.entries(props.data ?? {}).map(([k, v]) => [`data-${k}`, v]));
  return (
    <span className={`badge badge-${props.tone}`} title={props.title} data-testid={props.testId} {...dataAttrs}>
      {props.children}
    </span>
  );
}

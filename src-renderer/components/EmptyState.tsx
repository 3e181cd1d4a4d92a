import type { ReactNode } from 'react';

/** What an empty area says: what this is, and what to do next. */
export function EmptyState(props: { title: string; children?: ReactNode; testId?: string }) {
  return (
    <div className="empty-state" data-testid={props.testId}>
      <h3>{props.title}</h3>
      {props.children}
    </div>
  );
}

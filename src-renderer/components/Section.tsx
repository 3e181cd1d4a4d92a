import type { ReactNode } from 'react';

/** A titled block of the detail pane. */
export function Section(props: { title: ReactNode; aside?: ReactNode; children: ReactNode; testId?: string; tone?: 'warn' | 'plain' }) {
  return (
    <section className={`section${props.tone === 'warn' ? ' section-warn' : ''}`} data-testid={props.testId}>
      <header className="section-head">
        <h4>{props.title}</h4>
        {props.aside && <div className="section-aside">{props.aside}</div>}
      </header>
      <div className="section-body">{props.children}</div>
    </section>
  );
}

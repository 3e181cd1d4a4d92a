import type { ReactNode } from 'react';
import { ConfirmDialog } from '../../components/Dialog';

/**
 * The question asked before anything goes to a production operator (composer, edge cases, conformance
 * check): the target in full, the desk's reason, and what will be sent. One dialog, so the safety
 * wording and its test ids cannot drift apart between screens.
 */
export function ProductionConfirm(props: {
  title: string;
  /** "Send to", "Run against": the confirm button reads `${verb} ${target}`. */
  verb: string;
  targetUrl: string | null;
  message: string;
  onCancel(): void;
  onConfirm(): void;
  children?: ReactNode;
}) {
  return (
    <ConfirmDialog
      title={props.title}
      confirmLabel={`${props.verb} ${props.targetUrl ?? 'production'}`}
      danger
      onCancel={props.onCancel}
      onConfirm={props.onConfirm}
      testId="production-confirm"
    >
      <p>
        Target: <code data-testid="production-target">{props.targetUrl ?? '(the profile’s operator URL)'}</code>
      </p>
      <p>{props.message}</p>
      {props.children}
    </ConfirmDialog>
  );
}

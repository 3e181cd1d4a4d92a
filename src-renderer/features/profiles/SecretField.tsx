import { forwardRef, useState } from 'react';
import type { SecretState } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';

/**
 * A write-only secret: the input is always empty when the form opens (the desk never sends a secret
 * back), the stored one shows only as set/unset and its fingerprint. An uncontrolled input, so the
 * typed value lives in the input alone and never becomes an attribute in the page's HTML.
 */
export const SecretField = forwardRef<
  HTMLInputElement,
  { label: string; hint: string; state: SecretState | null; clearing: boolean; onClearingChange(clearing: boolean): void; testId: string }
>(function SecretField(props, ref) {
  const [typed, setTyped] = useState(false);
  const stored = props.state?.set === true;
  return (
    <div className="form-row secret-field" data-testid={props.testId}>
      <label className="form-label" htmlFor={`${props.testId}-input`}>
        {props.label}
      </label>
      <div className="form-control">
        <div className="secret-state">
          {stored ? (
            <Badge tone="green" testId={`${props.testId}-state`} data={{ set: 'true' }}>
              ✓ set · fingerprint <span className="mono">{props.state?.fingerprint}</span>
            </Badge>
          ) : (
            <Badge tone="grey" testId={`${props.testId}-state`} data={{ set: 'false' }}>
              not set
            </Badge>
          )}
          {props.clearing && (
            <span className="small text-error" data-testid={`${props.testId}-clearing`}>
              will be removed when you save{' '}
              <button type="button" className="link-plain" onClick={() => props.onClearingChange(false)}>
                undo
              </button>
            </span>
          )}
          {!props.clearing && typed && <span className="small muted">a new value will be stored when you save</span>}
        </div>
        <div className="secret-input-row">
          <input
            ref={ref}
            id={`${props.testId}-input`}
            className="input grow"
            type="password"
            autoComplete="new-password"
            spellCheck={false}
            disabled={props.clearing}
            placeholder={stored ? 'Leave empty to keep the stored value' : 'Type to set'}
            onInput={(e) => setTyped(e.currentTarget.value !== '')}
            data-testid={`${props.testId}-input`}
          />
          {stored && !props.clearing && (
            <button type="button" className="btn btn-small" onClick={() => props.onClearingChange(true)} data-testid={`${props.testId}-clear`}>
              Clear
            </button>
          )}
        </div>
        <div className="form-hint">{props.hint}</div>
      </div>
    </div>
  );
});

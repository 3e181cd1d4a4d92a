import { forwardRef, useState } from 'react';
import type { BalanceProbeView, BalanceUnits, ProfileInput } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';
import { SelectField, TextField } from '../../components/FormFields';
import { FormRow } from '../../components/FormRow';
import type { SelectOption } from '../../components/field-props';

/** The probe's fields as typed (the header values are not here: they live in the write-only textarea). */
export interface ProbeDraft {
  url: string;
  path: string;
  units: BalanceUnits | '';
  answerPath: string;
  clearHeaders: boolean;
}

export function probeDraftOf(view: BalanceProbeView | undefined): ProbeDraft {
  return { url: view?.url ?? '', path: view?.path ?? '', units: view?.units ?? '', answerPath: view?.answerPath ?? '', clearHeaders: false };
}

const orNull = (v: string): string | null => (v.trim() === '' ? null : v.trim());

/**
 * The probe part of a profile input. Typed header lines ("Name: value") replace the stored headers; an
 * empty box keeps them. Returns a sentence instead when a line has no colon (the line is a credential:
 * it is never quoted back).
 */
export function probeInput(draft: ProbeDraft, headerLines: string): Partial<ProfileInput> | string {
  const lines = headerLines
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  const pairs: Array<[string, string]> = [];
  for (const [i, line] of lines.entries()) {
    const colon = line.indexOf(':');
    if (colon <= 0) return `Balance probe header line ${i + 1} is not "Name: value".`;
    pairs.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return {
    balanceUrl: orNull(draft.url),
    balancePath: orNull(draft.path),
    balanceUnits: draft.units === '' ? null : draft.units,
    answerBalancePath: orNull(draft.answerPath),
    ...(draft.clearHeaders ? { balanceHeaders: null } : pairs.length > 0 ? { balanceHeaders: pairs } : {}),
  };
}

const UNITS: ReadonlyArray<SelectOption<BalanceUnits | ''>> = [
  { value: '', label: 'As the profile writes amounts' },
  { value: 'minor', label: 'Minor units (1050 for 10.50)' },
  { value: 'major', label: 'Major units (10.50)' },
];

interface Props {
  stored: BalanceProbeView | undefined;
  draft: ProbeDraft;
  onChange(draft: ProbeDraft): void;
}

/**
 * Where the conformance check reads the user's balance (its evidence of money): the operator's balance
 * endpoint for test users and where its answer holds the balance. The header values are credentials:
 * write-only like the secrets (an uncontrolled textarea, emptied after a save; stored ones show as a
 * fingerprint).
 */
export const BalanceProbeFields = forwardRef<HTMLTextAreaElement, Props>(function BalanceProbeFields({ stored, draft, onChange }, ref) {
  const [typed, setTyped] = useState(false);
  const set = (patch: Partial<ProbeDraft>) => onChange({ ...draft, ...patch });
  return (
    <fieldset className="form-group" data-testid="profile-balance">
      <legend>Money evidence (balance probe)</legend>
      <TextField
        label="Balance URL"
        hint="The operator's balance endpoint for test users (GET); {userId} stands for the user. Query values are stored encrypted and shown as ***: leave *** to keep a value, type over it to replace it. Without a probe, the money rules of the check are “not observable”."
        value={draft.url}
        onChange={(url) => set({ url })}
        placeholder="https://staging.operator.example/test/balance/{userId}"
        testId="profile-balance-url"
      />
      <TextField
        label="Balance path"
        hint='Where the balance is in the answer, as a JSONPath ($.data.balance, or with a filter: $.account.balances[?(@.currency=="USD")].available); may hold {userId}.'
        value={draft.path}
        onChange={(path) => set({ path })}
        placeholder="$.data.balance"
        testId="profile-balance-path"
      />
      <SelectField
        label="Balance units"
        hint="How the probe and the answers write a balance."
        value={draft.units}
        onChange={(units) => set({ units })}
        options={UNITS}
        testId="profile-balance-units"
      />
      <FormRow
        label="Probe headers"
        hint="One per line, “Name: value” (a staging token, say); a value may hold {userId} and {hmac-sha256-hex:TEMPLATE} or {hmac-sha256-base64:TEMPLATE}, signed with the key below. Stored encrypted, never shown again; typing new lines replaces the stored headers."
        controlId="profile-balance-headers"
      >
        <div className="secret-state">
          {(stored?.headers ?? []).map((h) => (
            <Badge key={h.name} tone="green" testId="profile-balance-header-state" data={{ name: h.name }}>
              {h.name}: ✓ set · fingerprint <span className="mono">{h.value.fingerprint}</span>
            </Badge>
          ))}
          {(stored?.headers.length ?? 0) === 0 && (
            <Badge tone="grey" testId="profile-balance-header-state">
              no headers
            </Badge>
          )}
          {(stored?.headers.length ?? 0) > 0 && (
            <label className="small">
              <input
                type="checkbox"
                checked={draft.clearHeaders}
                onChange={(e) => set({ clearHeaders: e.target.checked })}
                data-testid="profile-balance-headers-clear"
              />{' '}
              remove them when you save
            </label>
          )}
          {!draft.clearHeaders && typed && <span className="small muted">new headers will be stored when you save</span>}
        </div>
        <textarea
          ref={ref}
          id="profile-balance-headers"
          className="input mono"
          rows={2}
          spellCheck={false}
          autoComplete="off"
          disabled={draft.clearHeaders}
          placeholder="X-Staging-Token: …"
          onChange={(e) => setTyped(e.target.value !== '')}
          data-testid="profile-balance-headers"
        />
      </FormRow>
      <TextField
        label="Balance in answers"
        hint="Where an operator's answer to a callback carries the balance ($.balance), if it does: that counts as evidence too."
        value={draft.answerPath}
        onChange={(answerPath) => set({ answerPath })}
        placeholder="$.balance"
        testId="profile-answer-balance-path"
      />
    </fieldset>
  );
});

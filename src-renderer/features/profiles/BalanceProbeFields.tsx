import { forwardRef, useState } from 'react';
import type { BalanceProbeView, BalanceUnits, ProfileInput } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';

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

function Row(props: { label: string; hint: string; testId: string; children: React.ReactNode }) {
  return (
    <div className="form-row">
      <label className="form-label" htmlFor={props.testId}>
        {props.label}
      </label>
      <div className="form-control">
        {props.children}
        <div className="form-hint">{props.hint}</div>
      </div>
    </div>
  );
}

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
      <Row
        label="Balance URL"
        hint="The operator's balance endpoint for test users (GET); {userId} stands for the user. Without a probe, the money rules of the check are “not observable”."
        testId="profile-balance-url"
      >
        <input
          id="profile-balance-url"
          className="input"
          value={draft.url}
          placeholder="https://staging.operator.example/test/balance/{userId}"
          spellCheck={false}
          onChange={(e) => set({ url: e.target.value })}
          data-testid="profile-balance-url"
        />
      </Row>
      <Row label="Balance path" hint="Where the balance is in the answer, as a JSONPath ($.data.balance); may hold {userId}." testId="profile-balance-path">
        <input
          id="profile-balance-path"
          className="input"
          value={draft.path}
          placeholder="$.data.balance"
          spellCheck={false}
          onChange={(e) => set({ path: e.target.value })}
          data-testid="profile-balance-path"
        />
      </Row>
      <Row label="Balance units" hint="How the probe and the answers write a balance." testId="profile-balance-units">
        <select
          id="profile-balance-units"
          className="input"
          value={draft.units}
          onChange={(e) => set({ units: e.target.value as BalanceUnits | '' })}
          data-testid="profile-balance-units"
        >
          <option value="">As the profile writes amounts</option>
          <option value="minor">Minor units (1050 for 10.50)</option>
          <option value="major">Major units (10.50)</option>
        </select>
      </Row>
      <Row
        label="Probe headers"
        hint="One per line, “Name: value” (a staging token, say). Stored encrypted, never shown again; typing new lines replaces the stored headers."
        testId="profile-balance-headers"
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
      </Row>
      <Row
        label="Balance in answers"
        hint="Where an operator's answer to a callback carries the balance ($.balance), if it does: that counts as evidence too."
        testId="profile-answer-balance-path"
      >
        <input
          id="profile-answer-balance-path"
          className="input"
          value={draft.answerPath}
          placeholder="$.balance"
          spellCheck={false}
          onChange={(e) => set({ answerPath: e.target.value })}
          data-testid="profile-answer-balance-path"
        />
      </Row>
    </fieldset>
  );
});

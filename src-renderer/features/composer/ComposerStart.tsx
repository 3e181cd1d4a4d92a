import { useState } from 'react';
import type { TemplateKind } from '../../../src-main/shared/model';
import { useDesk } from '../../store';
import { DEFAULT_TEST_USER } from '../../../src-main/shared/model';
import { DEFAULT_CALLBACK_PREFIX } from '../../components/callback-prefix';
import { useActiveProfile } from '../profiles/use-active-profile';

/** Each template, and what it does; its path is the active profile's callback prefix and the message's name. */
export const TEMPLATES: Array<{ kind: TemplateKind; label: string; path: 'pay' | 'results'; what: string }> = [
  { kind: 'pay', label: 'Pay', path: 'pay', what: 'deduct an entry' },
  { kind: 'win', label: 'WIN', path: 'results', what: 'credit the amount' },
  { kind: 'draw', label: 'DRAW', path: 'results', what: 'credit the amount' },
  { kind: 'lose', label: 'LOSE', path: 'results', what: 'no amount' },
  { kind: 'refund', label: 'REFUND', path: 'results', what: 'return the stake' },
];

/** The composer before a draft exists: a template of each kind, or pointers to the other ways in. */
export function ComposerStart() {
  const openTemplate = useDesk((s) => s.openComposerTemplate);
  const openUser = useDesk((s) => s.detail?.userId ?? null);
  const setView = useDesk((s) => s.setView);
  const prefix = useActiveProfile().profile?.callbackPrefix ?? DEFAULT_CALLBACK_PREFIX;
  const [userId, setUserId] = useState(openUser ?? DEFAULT_TEST_USER);
  return (
    <div className="composer-start" data-testid="composer-start">
      <h3>Hand-craft a callback</h3>
      <p className="muted">A valid message of each kind, with a fresh depositId, ready to edit, sign and send.</p>
      <label className="stack-label inline">
        userId
        <input className="input" value={userId} onChange={(e) => setUserId(e.target.value)} spellCheck={false} data-testid="template-user" />
      </label>
      <div className="template-grid">
        {TEMPLATES.map((t) => (
          <button key={t.kind} type="button" className="template-card" onClick={() => void openTemplate(t.kind, userId)} data-testid={`template-${t.kind}`}>
            <strong>{t.label}</strong>
            <span className="muted small">
              POST {prefix}/{t.path}: {t.what}
            </span>
          </button>
        ))}
      </div>
      <h3>Or start from</h3>
      <ul className="start-list">
        <li>
          a capture: open it and choose <strong>Edit and replay</strong>, or for a pay <strong>Send its WIN / DRAW / LOSE / REFUND</strong>.{' '}
          <button type="button" className="link-plain" onClick={() => setView('captures')}>
            Go to Captures
          </button>
        </li>
        <li>
          an edge case: send it from the catalog, then open any of its requests here.{' '}
          <button type="button" className="link-plain" onClick={() => setView('edge-cases')}>
            Go to Edge cases
          </button>
        </li>
      </ul>
    </div>
  );
}

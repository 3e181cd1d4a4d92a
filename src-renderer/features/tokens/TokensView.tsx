import { useEffect, useState, type FormEvent } from 'react';
import { Badge } from '../../components/Badge';
import { ErrorBanner } from '../../components/ErrorBanner';
import { useDesk } from '../../store';
import { DEFAULT_TEST_USER } from '../../../src-main/shared/model';
import { useActiveProfile } from '../profiles/use-active-profile';
import { TokenHistory } from './TokenHistory';
import { TokenResultView } from './TokenResultView';

const DEFAULT_DISPLAY_NAME = 'Support test';

/** What the active profile supplies for a token request, and what it still lacks (in words). */
function ProfileSupplies() {
  const { profile, loaded } = useActiveProfile();
  const setView = useDesk((s) => s.setView);
  if (!loaded) return <p className="muted">Loading the active profile…</p>;
  if (!profile) {
    return (
      <p className="text-error" data-testid="token-profile">
        No active profile: the token service URL, operator id and API key come from one.{' '}
        <button type="button" className="link-plain" onClick={() => setView('profiles')}>
          Create a profile
        </button>
      </p>
    );
  }
  const missing = [!profile.baseUrl && 'service base URL', !profile.operatorId && 'operator id', !profile.apiKey.set && 'API key'].filter(Boolean);
  return (
    <div className="supplies" data-testid="token-profile">
      <span className="muted">From profile</span> <strong>{profile.name}</strong>: <code>{profile.baseUrl ?? '—'}</code> · operator{' '}
      <code>{profile.operatorId ?? '—'}</code> · API key{' '}
      {profile.apiKey.set ? <Badge tone="green">✓ set · {profile.apiKey.fingerprint}</Badge> : <Badge tone="red">not set</Badge>}
      {missing.length > 0 && (
        <p className="text-error small">
          The profile lacks the {missing.join(', ')}.{' '}
          <button type="button" className="link-plain" onClick={() => setView('profiles')}>
            Fill it in Profiles
          </button>
        </p>
      )}
    </div>
  );
}

/** Test tokens: request one for a user, read what came back, copy it; past requests below. */
export function TokensView() {
  const recent = useDesk((s) => s.tokenRecentUsers);
  const busy = useDesk((s) => s.tokenBusy);
  const result = useDesk((s) => s.tokenResult);
  const requestedFor = useDesk((s) => s.tokenRequestedFor);
  const error = useDesk((s) => s.tokenError);
  const history = useDesk((s) => s.tokenHistory);
  const historyError = useDesk((s) => s.tokenHistoryError);
  const request = useDesk((s) => s.requestToken);
  const loadHistory = useDesk((s) => s.loadTokenHistory);
  const clearError = useDesk((s) => s.clearTokenError);
  const openUser = useDesk((s) => s.detail?.userId ?? null);

  // The user of the open capture first (support usually starts from one), else the last one used.
  const first = openUser ?? recent[0]?.userId ?? DEFAULT_TEST_USER;
  const nameFor = (userId: string): string => recent.find((r) => r.userId === userId)?.displayName ?? DEFAULT_DISPLAY_NAME;
  const [userId, setUserId] = useState(first);
  const [displayName, setDisplayName] = useState(() => nameFor(first));
  const [nameTouched, setNameTouched] = useState(false);

  useEffect(() => {
    void loadHistory();
  }, [loadHistory]);

  const pickUser = (id: string): void => {
    setUserId(id);
    if (!nameTouched) setDisplayName(nameFor(id));
  };
  const submit = (e: FormEvent): void => {
    e.preventDefault();
    void request({ userId, displayName });
  };

  return (
    <div className="page" data-testid="tokens-view">
      <div className="page-head">
        <h2 className="screen-title">Test tokens</h2>
        <span className="muted">Ask the platform's create-token endpoint for a user's token, as the operator's backend does.</span>
      </div>
      <div className="page-grid">
        <div className="stack">
          <form className="card" onSubmit={submit} data-testid="token-form">
            <h3 className="card-title">Request a token</h3>
            <ProfileSupplies />
            <div className="form-pair">
              <label className="stack-label">
                userId
                <input
                  className="input"
                  list="recent-token-users"
                  value={userId}
                  onChange={(e) => pickUser(e.target.value)}
                  spellCheck={false}
                  data-testid="token-user"
                />
              </label>
              <label className="stack-label">
                displayName
                <input
                  className="input"
                  value={displayName}
                  onChange={(e) => {
                    setDisplayName(e.target.value);
                    setNameTouched(true);
                  }}
                  data-testid="token-display-name"
                />
              </label>
              <button
                type="submit"
                className="btn btn-primary"
                disabled={busy || userId.trim() === '' || displayName.trim() === ''}
                data-testid="token-request"
              >
                {busy ? 'Requesting…' : 'Request token'}
              </button>
            </div>
            <datalist id="recent-token-users">
              {recent.map((r) => (
                <option key={r.userId} value={r.userId}>
                  {r.displayName}
                </option>
              ))}
            </datalist>
            {recent.length > 0 && (
              <div className="recent-chips" data-testid="token-recent">
                <span className="muted small">Recent:</span>
                {recent.map((r) => (
                  <button
                    key={r.userId}
                    type="button"
                    className="chip"
                    onClick={() => {
                      setUserId(r.userId);
                      setDisplayName(r.displayName);
                    }}
                  >
                    {r.userId} <span className="muted">· {r.displayName}</span>
                  </button>
                ))}
              </div>
            )}
          </form>
          <ErrorBanner error={error} context="No request was sent" onDismiss={clearError} testId="token-request-error" />
          {result && <TokenResultView result={result} requestedFor={requestedFor} />}
        </div>
        <section className="card">
          <h3 className="card-title">History</h3>
          <ErrorBanner error={historyError} context="Could not load the history" onRetry={() => void loadHistory()} />
          <TokenHistory items={history} onPick={pickUser} />
        </section>
      </div>
    </div>
  );
}

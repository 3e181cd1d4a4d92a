import type { ProfileView } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';
import { useDesk, type TargetChoice } from '../../store';

/** The URL a choice resolves to, for confirmations and labels; null when there is none yet. */
export function targetUrlOf(choice: TargetChoice, profile: ProfileView | null): string | null {
  if (choice.mode === 'url') return choice.url.trim() || null;
  return profile?.operatorUrl ?? null;
}

/**
 * Where a send goes: the active profile's operator URL (shown), or a URL typed for this send. The
 * screen passes the active profile it already follows (useActiveProfile), so it is loaded once.
 */
export function TargetPicker(props: {
  value: TargetChoice;
  onChange(choice: TargetChoice): void;
  active: { profile: ProfileView | null; loaded: boolean };
  testId: string;
}) {
  const { profile, loaded } = props.active;
  const setView = useDesk((s) => s.setView);
  const typed = props.value.mode === 'url' ? props.value.url : '';
  const name = `${props.testId}-mode`;
  return (
    <div className="target-picker" data-testid={props.testId}>
      <label className="radio-row">
        <input
          type="radio"
          name={name}
          checked={props.value.mode === 'profile'}
          onChange={() => props.onChange({ mode: 'profile' })}
          data-testid={`${props.testId}-profile`}
        />
        {profile ? (
          <span>
            Profile <strong>{profile.name}</strong>:{' '}
            {profile.operatorUrl ? (
              <code data-testid={`${props.testId}-profile-url`}>{profile.operatorUrl}</code>
            ) : (
              <span className="text-error">
                no operator URL.{' '}
                <button type="button" className="link-plain" onClick={() => setView('profiles')}>
                  Set one in Profiles
                </button>{' '}
                or type a URL below.
              </span>
            )}{' '}
            {profile.production && <Badge tone="red">production: asks before sending</Badge>}
          </span>
        ) : (
          <span className="muted">
            {loaded ? 'No active profile. ' : 'Loading the active profile… '}
            {loaded && (
              <button type="button" className="link-plain" onClick={() => setView('profiles')}>
                Create one
              </button>
            )}
          </span>
        )}
      </label>
      <label className="radio-row">
        <input
          type="radio"
          name={name}
          checked={props.value.mode === 'url'}
          onChange={() => props.onChange({ mode: 'url', url: typed })}
          data-testid={`${props.testId}-url-mode`}
        />
        <span>Another URL</span>
        <input
          className="input grow"
          placeholder="http://127.0.0.1:4000"
          value={typed}
          spellCheck={false}
          onFocus={() => props.value.mode !== 'url' && props.onChange({ mode: 'url', url: typed })}
          onChange={(e) => props.onChange({ mode: 'url', url: e.target.value })}
          aria-label="Target URL"
          data-testid={`${props.testId}-url`}
        />
      </label>
      {props.value.mode === 'url' && typed.trim() === '' && <p className="form-hint text-error">Type the base URL to send to (the path is appended).</p>}
    </div>
  );
}

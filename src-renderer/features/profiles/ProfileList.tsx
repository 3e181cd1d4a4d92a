import type { ProfileView } from '../../../src-main/shared/model';
import { Badge } from '../../components/Badge';

/** Every profile with what matters at a glance: active, production, which secrets are set. */
export function ProfileList(props: { profiles: ProfileView[]; selected: string | null; onSelect(name: string): void; onUse(name: string): void }) {
  return (
    <ul className="profile-list" data-testid="profile-list">
      {props.profiles.map((p) => (
        <li
          key={p.name}
          className={`profile-card${p.name === props.selected ? ' selected' : ''}`}
          onClick={() => props.onSelect(p.name)}
          data-testid="profile-card"
          data-name={p.name}
          data-active={p.active}
        >
          <div className="profile-card-line">
            <strong className="profile-name">{p.name}</strong>
            {p.active && <Badge tone="green">● active</Badge>}
            {p.production && <Badge tone="red">production</Badge>}
            <span className="spacer" />
            {!p.active && (
              <button
                type="button"
                className="btn btn-small"
                onClick={(e) => {
                  e.stopPropagation();
                  props.onUse(p.name);
                }}
                data-testid="profile-use"
              >
                Use
              </button>
            )}
          </div>
          <div className="profile-card-line small muted">
            <span className="ellipsis">{p.operatorUrl ?? 'no operator URL'}</span>
          </div>
          <div className="profile-card-line small">
            <Badge tone={p.secret.set ? 'blue' : 'grey'}>{p.secret.set ? `secret ${p.secret.fingerprint}` : 'no secret'}</Badge>
            <Badge tone={p.apiKey.set ? 'blue' : 'grey'}>{p.apiKey.set ? `API key ${p.apiKey.fingerprint}` : 'no API key'}</Badge>
          </div>
        </li>
      ))}
    </ul>
  );
}

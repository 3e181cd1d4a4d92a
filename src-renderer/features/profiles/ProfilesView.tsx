import { useEffect, useState } from 'react';
import { Badge } from '../../components/Badge';
import { ConfirmDialog, Dialog } from '../../components/Dialog';
import { EmptyState } from '../../components/EmptyState';
import { ErrorBanner } from '../../components/ErrorBanner';
import { useDesk } from '../../store';
import { ApplyUpstreamDialog, upstreamOffer, type UpstreamOffer } from './ApplyUpstreamDialog';
import { ProfileForm } from './ProfileForm';
import { ProfileList } from './ProfileList';

/** Create, edit, duplicate, delete and switch profiles: each operator's URLs, secrets and safety settings. */
export function ProfilesView() {
  const profiles = useDesk((s) => s.profiles);
  const loaded = useDesk((s) => s.profilesLoaded);
  const error = useDesk((s) => s.profilesError);
  const load = useDesk((s) => s.loadProfiles);
  const switchProfile = useDesk((s) => s.switchProfile);
  const duplicate = useDesk((s) => s.duplicateProfile);
  const remove = useDesk((s) => s.removeProfile);
  const clearError = useDesk((s) => s.clearProfilesError);
  const [selected, setSelected] = useState<string | null>(null);
  const [saves, setSaves] = useState(0);
  const [savedNote, setSavedNote] = useState<{ name: string; text: string } | null>(null);
  const noteSaved = (name: string): void => setSavedNote({ name, text: `Saved “${name}” at ${new Date().toLocaleTimeString()}.` });
  const [copying, setCopying] = useState<string | null>(null);
  const [deleting, setDeleting] = useState(false);
  const [offer, setOffer] = useState<UpstreamOffer | null>(null);

  // A running proxy keeps its upstream: switching to a profile that forwards elsewhere asks whether to apply it.
  const use = async (name: string): Promise<void> => {
    if (await switchProfile(name)) setOffer(upstreamOffer(name));
  };

  useEffect(() => {
    void load();
  }, [load]);

  // Open the active profile (else the first, else a new one) once the list is in.
  useEffect(() => {
    if (!loaded) return;
    if (selected === 'new' || (selected !== null && profiles.some((p) => p.name === selected))) return;
    setSelected(profiles.find((p) => p.active)?.name ?? profiles[0]?.name ?? 'new');
  }, [loaded, profiles, selected]);

  const current = profiles.find((p) => p.name === selected) ?? null;

  return (
    <div className="split split-narrow-left" data-testid="profiles-view">
      <div className="split-left">
        <div className="toolbar">
          <h2 className="screen-title">Profiles</h2>
          <span className="spacer" />
          <button type="button" className="btn btn-small btn-primary" onClick={() => setSelected('new')} data-testid="profile-new">
            + New profile
          </button>
        </div>
        <ErrorBanner error={error} context="Profiles" onDismiss={clearError} testId="profiles-error" />
        <div className="scroll">
          {loaded && profiles.length === 0 ? (
            <EmptyState title="No profile yet">
              <p>A profile holds one operator's settings: where to send, the signing secret, the token service. Create the first one on the right.</p>
            </EmptyState>
          ) : (
            <ProfileList profiles={profiles} selected={selected} onSelect={setSelected} onUse={(name) => void use(name)} />
          )}
        </div>
      </div>
      <div className="split-right pane-pad">
        {selected === 'new' && (
          <div className="card" data-testid="profile-editor" data-name="">
            <h3 className="card-title">New profile</h3>
            <ProfileForm
              key={`new-${saves}`}
              profile={null}
              onSaved={(name) => {
                setSaves(saves + 1);
                setSelected(name);
                noteSaved(name);
              }}
            />
          </div>
        )}
        {current && (
          <div className="card" data-testid="profile-editor" data-name={current.name}>
            <div className="card-head">
              <h3 className="card-title">
                {current.name} {current.active && <Badge tone="green">● active</Badge>} {current.production && <Badge tone="red">production</Badge>}
              </h3>
              <span className="spacer" />
              {!current.active && (
                <button type="button" className="btn btn-small btn-primary" onClick={() => void use(current.name)} data-testid="profile-switch">
                  Use this profile
                </button>
              )}
              <button type="button" className="btn btn-small" onClick={() => setCopying(`${current.name} copy`)} data-testid="profile-duplicate">
                Duplicate…
              </button>
              <button type="button" className="btn btn-small btn-danger-ghost" onClick={() => setDeleting(true)} data-testid="profile-delete">
                Delete…
              </button>
            </div>
            <ProfileForm
              key={`${current.name}-${saves}`}
              profile={current}
              savedNote={savedNote?.name === current.name ? savedNote.text : null}
              onSaved={(name) => {
                setSaves(saves + 1);
                noteSaved(name);
              }}
            />
          </div>
        )}
      </div>
      {copying !== null && current && (
        <Dialog
          title={`Duplicate “${current.name}”`}
          onClose={() => setCopying(null)}
          testId="duplicate-dialog"
          actions={
            <>
              <button type="button" className="btn" onClick={() => setCopying(null)}>
                Cancel
              </button>
              <button
                type="button"
                className="btn btn-primary"
                disabled={copying.trim() === ''}
                onClick={async () => {
                  const made = await duplicate(current.name, copying.trim());
                  setCopying(null);
                  if (made) setSelected(made.name);
                }}
                data-testid="duplicate-ok"
              >
                Duplicate
              </button>
            </>
          }
        >
          <p>The copy keeps every setting, secrets included (still encrypted, still never shown).</p>
          <label className="stack-label">
            Name of the copy
            <input className="input" value={copying} onChange={(e) => setCopying(e.target.value)} data-autofocus data-testid="duplicate-name" />
          </label>
        </Dialog>
      )}
      {offer && <ApplyUpstreamDialog offer={offer} onDone={() => setOffer(null)} />}
      {deleting && current && (
        <ConfirmDialog
          title={`Delete profile “${current.name}”?`}
          confirmLabel="Delete"
          danger
          onCancel={() => setDeleting(false)}
          onConfirm={async () => {
            setDeleting(false);
            if (await remove(current.name)) setSelected(null);
          }}
        >
          <p>Its settings and stored secrets are removed from this desk. Captured exchanges stay.</p>
          {current.active && <p className="text-error">It is the active profile: afterwards no profile is active until you choose one.</p>}
        </ConfirmDialog>
      )}
    </div>
  );
}

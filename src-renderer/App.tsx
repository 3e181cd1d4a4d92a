import { desk } from './api';
import { ThemeToggle } from './components/ThemeToggle';
import { AccessNeeded } from './features/access/AccessNeeded';
import { useDesk } from './store';
import { VIEWS } from './features/registry';
import { StatusBar } from './features/status-bar/StatusBar';

function ConnectionIndicator() {
  const connection = useDesk((s) => s.connection);
  const detail = useDesk((s) => s.connectionDetail);
  const words = { live: 'live', connecting: 'connecting…', offline: 'offline', denied: 'no access' } as const;
  return (
    <span
      className={`connection connection-${connection}`}
      title={detail ?? `${desk.transport === 'web' ? 'Web mode' : 'Desktop app'}: new captures appear as they arrive`}
      data-testid="connection"
      data-state={connection}
    >
      <span className="dot" aria-hidden="true" /> {words[connection]}
    </span>
  );
}

function ConnectionProblem() {
  const connection = useDesk((s) => s.connection);
  const detail = useDesk((s) => s.connectionDetail);
  if (connection !== 'offline' || !detail) return null;
  return (
    <div className="error-banner" role="alert" data-testid="connection-error">
      <div className="error-banner-text">{detail}</div>
    </div>
  );
}

export function App() {
  const view = useDesk((s) => s.view);
  const setView = useDesk((s) => s.setView);
  const denied = useDesk((s) => s.connection === 'denied');
  const deniedDetail = useDesk((s) => s.connectionDetail);
  const current = VIEWS.find((v) => v.id === view) ?? VIEWS[0]!;
  return (
    <div className="app">
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ◆
          </span>{' '}
          Wager Desk
        </div>
        <nav className="nav" aria-label="Screens" hidden={denied}>
          {VIEWS.map((v) => (
            <button
              key={v.id}
              type="button"
              className={v.id === view ? 'nav-item nav-active' : 'nav-item'}
              aria-current={v.id === view ? 'page' : undefined}
              onClick={() => setView(v.id)}
              data-testid={`nav-${v.id}`}
            >
              {v.label}
            </button>
          ))}
        </nav>
        <span className="spacer" />
        <ThemeToggle />
        <ConnectionIndicator />
      </header>
      {denied ? (
        <AccessNeeded detail={deniedDetail} />
      ) : (
        <>
          <StatusBar />
          <ConnectionProblem />
          <main className="main">
            <current.Component />
          </main>
        </>
      )}
    </div>
  );
}

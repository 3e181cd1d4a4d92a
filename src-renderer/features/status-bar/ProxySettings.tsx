import { useState, type FormEvent } from 'react';
import type { ProxyStatus } from '../../../src-main/shared/model';
import { useDesk } from '../../store';

/** Port and upstream of the capture proxy. An empty upstream means the sandbox operator answers. */
export function ProxySettings(props: { proxy: ProxyStatus | null; onDone(): void }) {
  const reconfigure = useDesk((s) => s.reconfigureProxy);
  const busy = useDesk((s) => s.proxyBusy);
  const [port, setPort] = useState(String(props.proxy?.port ?? ''));
  const [upstream, setUpstream] = useState(props.proxy?.upstream ?? '');
  const [problem, setProblem] = useState<string | null>(null);

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const portNumber = port.trim() === '' ? 0 : Number(port);
    if (!Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535) {
      setProblem('The port must be a whole number from 0 to 65535 (0 picks a free port).');
      return;
    }
    const target = upstream.trim();
    if (target !== '') {
      try {
        const u = new URL(target);
        if (u.protocol !== 'http:' && u.protocol !== 'https:') throw new Error('protocol');
      } catch {
        setProblem('The upstream must be an http:// or https:// URL, or empty for the sandbox operator.');
        return;
      }
    }
    setProblem(null);
    if (await reconfigure({ port: portNumber, upstream: target === '' ? null : target })) props.onDone();
  };

  return (
    <form className="proxy-settings" onSubmit={(e) => void submit(e)} data-testid="proxy-settings">
      <label>
        Port
        <input className="input port" inputMode="numeric" value={port} onChange={(e) => setPort(e.target.value)} data-testid="proxy-port" />
      </label>
      <label className="grow">
        Upstream (operator URL)
        <input
          className="input"
          placeholder="empty: the sandbox operator answers"
          value={upstream}
          onChange={(e) => setUpstream(e.target.value)}
          data-testid="proxy-upstream"
        />
      </label>
      <button type="submit" className="btn btn-small btn-primary" disabled={busy} data-testid="proxy-apply">
        {props.proxy?.running ? 'Restart with these' : 'Start with these'}
      </button>
      <button type="button" className="btn btn-small btn-ghost" onClick={props.onDone}>
        Cancel
      </button>
      {problem && (
        <p className="text-error small" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

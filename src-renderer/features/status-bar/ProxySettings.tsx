import { useState, type FormEvent } from 'react';
import type { ProxyStatus, ProxyTls } from '../../../src-main/shared/model';
import { useDesk } from '../../store';

type TlsChoice = 'none' | 'files' | 'self-signed';

function isHttpUrl(text: string): boolean {
  try {
    const u = new URL(text);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

/**
 * Port, upstream, HTTPS and public URL of the capture proxy. An empty upstream means the sandbox operator
 * answers; an empty public URL means the profile's (else the proxy's own address). A change to a running
 * proxy is applied without dropping traffic, and one that fails leaves it as it was (the error says why).
 */
export function ProxySettings(props: { proxy: ProxyStatus | null; onDone(): void }) {
  const reconfigure = useDesk((s) => s.reconfigureProxy);
  const busy = useDesk((s) => s.proxyBusy);
  const tlsNow = props.proxy?.tls ?? null;
  const [port, setPort] = useState(String(props.proxy?.port ?? ''));
  const [upstream, setUpstream] = useState(props.proxy?.upstream ?? '');
  // The profile's public URL is shown as the placeholder, not copied into the proxy's own setting.
  const fromProfile = props.proxy?.publicUrlSource === 'profile' ? props.proxy.publicUrl : null;
  const [publicUrl, setPublicUrl] = useState(props.proxy?.publicUrlSource === 'proxy' ? (props.proxy.publicUrl ?? '') : '');
  const [tlsChoice, setTlsChoice] = useState<TlsChoice>(tlsNow === null ? 'none' : tlsNow.source === 'self-signed' ? 'self-signed' : 'files');
  const [certFile, setCertFile] = useState(tlsNow?.source === 'files' ? tlsNow.certFile : '');
  const [keyFile, setKeyFile] = useState('');
  const [hosts, setHosts] = useState(tlsNow?.source === 'self-signed' ? tlsNow.hosts.join(',') : (props.proxy?.host ?? '127.0.0.1'));
  const [problem, setProblem] = useState<string | null>(null);

  /** The TLS setting to send (undefined: keep the running one), or why the form cannot be applied. */
  const tlsSetting = (): ProxyTls | null | undefined | string => {
    if (tlsChoice === 'none') return null;
    if (tlsChoice === 'self-signed') {
      const list = hosts
        .split(',')
        .map((h) => h.trim())
        .filter((h) => h !== '');
      return list.length === 0 ? 'A self-signed certificate needs the names or addresses it is for (e.g. 127.0.0.1,localhost).' : { selfSigned: list };
    }
    // The key file's path is not shown back: the same certificate without a new key keeps what runs.
    if (tlsNow?.source === 'files' && certFile.trim() === tlsNow.certFile && keyFile.trim() === '') return undefined;
    if (certFile.trim() === '' || keyFile.trim() === '') return 'HTTPS with your own certificate needs both files: the certificate and its private key (PEM).';
    return { certFile: certFile.trim(), keyFile: keyFile.trim() };
  };

  const submit = async (e: FormEvent): Promise<void> => {
    e.preventDefault();
    const portNumber = port.trim() === '' ? 0 : Number(port);
    if (!Number.isInteger(portNumber) || portNumber < 0 || portNumber > 65535) {
      setProblem('The port must be a whole number from 0 to 65535 (0 picks a free port).');
      return;
    }
    const target = upstream.trim();
    if (target !== '' && !isHttpUrl(target)) {
      setProblem('The upstream must be an http:// or https:// URL, or empty for the sandbox operator.');
      return;
    }
    const publicTarget = publicUrl.trim();
    if (publicTarget !== '' && !isHttpUrl(publicTarget)) {
      setProblem("The public URL must be an http:// or https:// URL (a tunnel's or a host's), or empty.");
      return;
    }
    const tls = tlsSetting();
    if (typeof tls === 'string') {
      setProblem(tls);
      return;
    }
    setProblem(null);
    const ok = await reconfigure({
      port: portNumber,
      upstream: target === '' ? null : target,
      publicUrl: publicTarget === '' ? null : publicTarget,
      ...(tls !== undefined ? { tls } : {}),
    });
    if (ok) props.onDone();
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
      <label className="grow">
        Public URL (what the platform calls)
        <input
          className="input"
          placeholder={fromProfile ? `empty: the profile's, ${fromProfile}` : "empty: the profile's, else the proxy's own address"}
          value={publicUrl}
          onChange={(e) => setPublicUrl(e.target.value)}
          data-testid="proxy-public-url"
        />
      </label>
      <label>
        HTTPS
        <select className="input" value={tlsChoice} onChange={(e) => setTlsChoice(e.target.value as TlsChoice)} data-testid="proxy-tls-choice">
          <option value="none">off (plain HTTP)</option>
          <option value="self-signed">self-signed certificate</option>
          <option value="files">my certificate files</option>
        </select>
      </label>
      {tlsChoice === 'self-signed' && (
        <label className="grow">
          For these names and addresses (comma-separated)
          <input className="input" value={hosts} onChange={(e) => setHosts(e.target.value)} data-testid="proxy-tls-hosts" />
        </label>
      )}
      {tlsChoice === 'files' && (
        <>
          <label className="grow">
            Certificate file (PEM)
            <input className="input" value={certFile} onChange={(e) => setCertFile(e.target.value)} data-testid="proxy-tls-cert" />
          </label>
          <label className="grow">
            Private key file (PEM)
            <input className="input" value={keyFile} onChange={(e) => setKeyFile(e.target.value)} data-testid="proxy-tls-key" />
          </label>
        </>
      )}
      <button type="submit" className="btn btn-small btn-primary" disabled={busy} data-testid="proxy-apply">
        {props.proxy?.running ? 'Apply to the running proxy' : 'Start with these'}
      </button>
      <button type="button" className="btn btn-small btn-ghost" onClick={props.onDone}>
        Cancel
      </button>
      {tlsNow && (
        <p className="small muted" data-testid="proxy-tls-fingerprint">
          Serving {tlsNow.certFile} · SHA-256 {tlsNow.fingerprint256}
        </p>
      )}
      {problem && (
        <p className="text-error small" role="alert">
          {problem}
        </p>
      )}
    </form>
  );
}

import { useEffect, useState } from 'react';
import type { ExchangeSummary } from '../../../src-main/shared/model';
import { desk } from '../../api';
import { kindLabel } from '../../components/format';
import type { ComposerOrigin } from '../../store';
import { useOpenInCaptures } from '../../components/use-open-exchange';

function useSummary(id: number | null): ExchangeSummary | null {
  const [x, setX] = useState<ExchangeSummary | null>(null);
  useEffect(() => {
    if (id === null) return;
    let live = true;
    void desk.getExchange(id).then((r) => {
      if (live && r.ok)
        setX({ ...r.value, signature: { verdict: r.value.signature.verdict }, response: r.value.response ? { status: r.value.response.status } : null });
    });
    return () => {
      live = false;
    };
  }, [id]);
  return x;
}

/** Where the draft came from, in words, with a link to the source. */
export function OriginLine(props: { origin: ComposerOrigin }) {
  const { origin } = props;
  const sourceId = origin.kind === 'capture' ? origin.id : origin.kind === 'follow-up' ? origin.payId : null;
  const source = useSummary(sourceId);
  const openInCaptures = useOpenInCaptures();
  const link =
    sourceId === null ? null : (
      <button type="button" className="link" onClick={() => openInCaptures(sourceId)} data-testid="composer-source">
        #{sourceId}
      </button>
    );
  const about = source && (
    <span className="muted">
      {' '}
      ({kindLabel(source)}
      {source.depositId && (
        <>
          , deposit <code>{source.depositId}</code>
        </>
      )}
      )
    </span>
  );
  if (origin.kind === 'capture') {
    return (
      <span data-testid="composer-origin" data-kind="capture">
        Edit and replay of {link}
        {about}
      </span>
    );
  }
  if (origin.kind === 'follow-up') {
    return (
      <span data-testid="composer-origin" data-kind="follow-up">
        <strong>{origin.result}</strong> for pay {link}
        {about}: same user, deposit and currency
      </span>
    );
  }
  if (origin.kind === 'saved') {
    return (
      <span data-testid="composer-origin" data-kind="saved">
        Saved request <strong>{origin.name}</strong>, signed when it is sent
      </span>
    );
  }
  return (
    <span data-testid="composer-origin" data-kind="template">
      New <strong>{origin.template === 'pay' ? 'pay' : origin.template.toUpperCase()}</strong> from the template, for user <code>{origin.userId}</code>, with a
      fresh depositId
    </span>
  );
}

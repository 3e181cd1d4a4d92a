import type { ExchangeDetail, HarQuery } from '../../shared/model';
import type { StoreAndSecrets } from '../secrets';
import { buildHar } from './har-build';
import { selectForHar } from './har-select';
import { storedSecrets } from '../redact';

/** The selected exchanges as HAR 1.2 text (pretty-printed JSON), secrets redacted. */
export function exportHar(ctx: StoreAndSecrets, query: HarQuery): string {
  const selection = selectForHar(ctx.store, query);
  const details = selection.ids.map((id) => ctx.store.exchanges.get(id)).filter((x): x is ExchangeDetail => x !== null);
  const har = buildHar(details, storedSecrets(ctx), `Exported by Wager Desk: ${selection.description}.`);
  return `${JSON.stringify(har, null, 2)}\n`;
}

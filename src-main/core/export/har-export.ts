import type { HarQuery } from '../../shared/model';
import type { StoreAndSecrets } from '../secrets';
import type { ExchangeLog } from '../store/contract/exchange-log';
import { harText } from './har-text';
import { selectForHar } from './har-select';
import { storedSecrets } from '../redact';
import { harEntriesHere, type HarEntriesBuilder } from './har-entries-text';

/** The selected exchanges as HAR 1.2 text (pretty-printed JSON), secrets redacted; entries built by `build` (default: here). */
export async function exportHar(ctx: StoreAndSecrets & { log: ExchangeLog }, query: HarQuery, build: HarEntriesBuilder = harEntriesHere): Promise<string> {
  const selection = await selectForHar(ctx.log, query);
  return harText(selection.ids, (ids) => ctx.log.exportRows(ids), storedSecrets(ctx), `Exported by Wager Desk: ${selection.description}.`, build);
}

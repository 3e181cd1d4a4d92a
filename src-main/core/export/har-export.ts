import type { HarQuery } from '../../shared/model';
import type { StoreAndSecrets } from '../secrets';
import type { ExchangeLog } from '../store/contract/exchange-log';
import { harText } from './har-text';
import { selectForHar } from './har-select';
import { storedSecrets } from '../redact';

/** The selected exchanges as HAR 1.2 text (pretty-printed JSON), secrets redacted. */
export async function exportHar(ctx: StoreAndSecrets & { log: ExchangeLog }, query: HarQuery): Promise<string> {
  const selection = await selectForHar(ctx.log, query);
  return harText(selection.ids, (id) => ctx.log.get(id), storedSecrets(ctx), `Exported by Wager Desk: ${selection.description}.`);
}

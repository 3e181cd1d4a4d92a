import type { ExchangeDetail, HarQuery } from '../../shared/model';
import type { StoreAndSecrets } from '../secrets';
import type { ExchangeLog } from '../store/contract/exchange-log';
import { buildHar } from './har-build';
import { selectForHar } from './har-select';
import { storedSecrets } from '../redact';

/** The selected exchanges as HAR 1.2 text (pretty-printed JSON), secrets redacted. */
export async function exportHar(ctx: StoreAndSecrets & { log: ExchangeLog }, query: HarQuery): Promise<string> {
  const selection = await selectForHar(ctx.log, query);
  const details = (await Promise.all(selection.ids.map((id) => ctx.log.get(id)))).filter((x): x is ExchangeDetail => x !== null);
  const har = buildHar(details, storedSecrets(ctx), `Exported by Wager Desk: ${selection.description}.`);
  return `${JSON.stringify(har, null, 2)}\n`;
}

import type { ExchangeDetail, HarQuery } from '../../shared/model';
import type { StoreAndSecrets } from '../secrets';
import type { ExchangeReader } from '../store/exchange-reader';
import { buildHar } from './har-build';
import { selectForHar } from './har-select';
import { storedSecrets } from '../redact';

/** The selected exchanges as HAR 1.2 text (pretty-printed JSON), secrets redacted. */
export async function exportHar(ctx: StoreAndSecrets & { log: ExchangeReader }, query: HarQuery): Promise<string> {
  const selection = await selectForHar(ctx.store, ctx.log, query);
  const details = (await Promise.all(selection.ids.map((id) => ctx.log.get(id)))).filter((x): x is ExchangeDetail => x !== null);
  const har = buildHar(details, storedSecrets(ctx), `Exported by Wager Desk: ${selection.description}.`);
  return `${JSON.stringify(har, null, 2)}\n`;
}

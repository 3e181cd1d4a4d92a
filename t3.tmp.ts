import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from './src-main/core/store/open';
import { ExchangeStore } from './src-main/core/store/exchanges';
import { generateRows } from './bench/lib/exchange-rows';
const rows: any[] = [];
for (const g of generateRows(6000, 7, [])) { if (g.row.direction === 'inbound') rows.push(g); if (rows.length === 3000) break; }
for (const variant of ['fts', 'none', 'insert-only', 'fts']) {
  const db = openDatabase(join(mkdtempSync('/tmp/h25/w'), 'd.sqlite'));
  if (variant === 'none') for (const t of ['exchange_text_insert', 'exchange_text_request', 'exchange_text_answer', 'exchange_text_delete']) db.exec(`DROP TRIGGER ${t}`);
  if (variant === 'insert-only') db.exec('DROP TRIGGER exchange_text_answer');
  const store = new ExchangeStore(db);
  const tx = db.transaction((w: () => void) => w());
  let ti = 0, tc = 0;
  for (let s = 0; s < rows.length; s += 11) {
    const g = rows.slice(s, s + 11);
    let t = performance.now();
    const ids: number[] = [];
    tx.immediate(() => { for (const r of g) ids.push(store.insert(r.row).id); });
    ti += performance.now() - t;
    t = performance.now();
    tx.immediate(() => { g.forEach((r, k) => store.complete(ids[k]!, r.completion)); });
    tc += performance.now() - t;
  }
  console.log(variant, 'insert µs/req', ((ti * 1000) / rows.length).toFixed(1), 'complete µs/req', ((tc * 1000) / rows.length).toFixed(1));
  db.close();
}

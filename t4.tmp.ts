import { mkdtempSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from './src-main/core/store/open';
import { ExchangeStore } from './src-main/core/store/exchanges';
import { generateRows } from './bench/lib/exchange-rows';
const rows: any[] = [];
for (const g of generateRows(6000, 7, [])) { if (g.row.direction === 'inbound') rows.push(g); if (rows.length === 3000) break; }
const B = Number(process.argv[2] ?? 11);
for (const variant of ['none', 'fts', 'none', 'fts', 'fts-nodelete']) {
  const db = openDatabase(join(mkdtempSync('/tmp/h25/w'), 'd.sqlite'));
  if (variant === 'none') for (const t of ['exchange_text_insert', 'exchange_text_request', 'exchange_text_answer', 'exchange_text_delete']) db.exec(`DROP TRIGGER ${t}`);
  if (variant === 'fts-nodelete') {
    db.exec(`DROP TABLE exchange_text; CREATE VIRTUAL TABLE exchange_text USING fts5(text, tokenize = 'trigram', content = '')`);
    db.exec('DROP TRIGGER exchange_text_answer; DROP TRIGGER exchange_text_delete');
  }
  const store = new ExchangeStore(db);
  const tx = db.transaction((w: () => void) => w());
  let ti = 0;
  for (let s = 0; s < rows.length; s += B) {
    const g = rows.slice(s, s + B);
    const t = performance.now();
    tx.immediate(() => { for (const r of g) store.insert(r.row); });
    ti += performance.now() - t;
  }
  const segs = db.prepare("select count(*) from exchange_text_data").pluck().get();
  console.log(B, variant, 'insert µs/req', ((ti * 1000) / rows.length).toFixed(1), 'data rows', segs);
  db.close();
}

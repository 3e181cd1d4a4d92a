// A balance URL's query values may be credentials (?key=...): the whole URL is sealed like the probe's
// headers (SQLite's migration 016), and balance_url keeps it with its query values masked.
export const SQL = `ALTER TABLE profiles ADD COLUMN balance_url_enc bytea;`;

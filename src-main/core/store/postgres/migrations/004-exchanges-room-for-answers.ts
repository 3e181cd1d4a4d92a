// A capture's row is inserted when its request comes and updated once when its answer does, a few
// milliseconds later, while its page is still the one new rows fill. With every page filled to the
// brim, the answer's version of the row finds no room beside the old one: it goes to another page and
// every index of the table (twelve) takes a new entry for it. Pages filled only halfway by inserts
// leave the answers room on the same page, so the update is a heap-only tuple (no index touched, a
// fraction of the WAL) and the old version is pruned in place. The table takes up to twice the pages
// of a full fill; the answers' index entries it saves cost more, in CPU, WAL and index size.
// Only pages written from now on follow the setting: older pages are left as they are.
export const SQL = `ALTER TABLE exchanges SET (fillfactor = 50);`;

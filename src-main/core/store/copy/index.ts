// Copying the log between the SQLite and the PostgreSQL engines (db copy).
export { COPIED_TABLES, columnsOf, type CopiedTable, type ColumnKind } from './copied-tables';
export { copyTables, DEFAULT_BATCH_ROWS, type CopyOptions, type CopyOutcome, type CopyProgress } from './copy-tables';
export type { CopySide, Row, Value } from './copy-side';
export { postgresSide } from './postgres-side';
export { sqliteSide } from './sqlite-side';

// When a row is complete enough for the text indexers of both engines, and how long one still in flight
// may hold them back. SQLite's migration 012 keeps its own copy of the condition: a migration's SQL never
// changes once shipped.

/** Whether the row `r` has its answer (or its failure): the indexers index its answer with it. */
export const isComplete = (r: string): string => `(${r}.completed_at IS NOT NULL OR ${r}.res_status IS NOT NULL OR ${r}.error IS NOT NULL)`;

/** How long a row in flight holds the indexer back before it is indexed without its answer. */
export const IN_FLIGHT_WAIT_MS = 2_000;
/** How many newer rows a row in flight holds back before it is indexed without its answer. */
export const IN_FLIGHT_WAIT_ROWS = 2_000;

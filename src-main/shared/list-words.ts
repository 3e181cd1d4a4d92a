// What an empty list of captures says, in the UI and on the terminal alike: a log with nothing yet is
// not a search without hits, and telling the second to start the proxy sends the user the wrong way.

/** The empty list when filters (a search, a verdict, an id, a kind) left no row. */
export const NO_CAPTURE_MATCHES = 'No capture matches these filters';

// What an engine keeps running beside a proxy that writes its log, off the capture path (SQLite: WAL
// checkpoints and the text index, each on a worker thread). The proxy starts it with its first listener and
// stops it with its last, and knows nothing of what it does.

export interface CaptureUpkeep {
  stop(): Promise<void>;
}

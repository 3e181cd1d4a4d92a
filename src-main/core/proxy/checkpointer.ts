// The proxy's controller runs the WAL checkpointer from its first listener to its stop (one across changes of
// listener); the checkpointer itself is the store's.
export { Checkpointer } from '../store/sqlite/checkpointer';

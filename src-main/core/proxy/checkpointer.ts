// The capture server starts the WAL checkpointer where it starts listening; the checkpointer itself is the store's.
export { Checkpointer } from '../store/checkpointer';

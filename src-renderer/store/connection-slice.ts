import type { ConnectionState } from '../api';
import type { SliceCreator } from './types';

export interface ConnectionSlice {
  connection: ConnectionState;
  /** Why the live updates stopped, in words; null while live. */
  connectionDetail: string | null;
  setConnection(state: ConnectionState, detail: string | null): void;
}

export const createConnectionSlice: SliceCreator<ConnectionSlice> = (set) => ({
  connection: 'connecting',
  connectionDetail: null,
  setConnection: (connection, connectionDetail) => set({ connection, connectionDetail }),
});

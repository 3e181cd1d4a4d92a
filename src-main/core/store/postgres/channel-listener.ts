// One LISTEN connection to one NOTIFY channel, opened again after it drops. A notification sent while the
// connection was down is lost, so `onNews` also runs after every (re)connect: the listener then reads
// whatever it may have missed.
import type pg from 'pg';

const RECONNECT_MS = 1_000;

export interface ChannelListener {
  stop(): Promise<void>;
}

export function listenToChannel(connect: () => Promise<pg.Client>, channel: string, onNews: () => void): ChannelListener {
  let stopped = false;
  let client: pg.Client | null = null;
  let reconnect: NodeJS.Timeout | null = null;

  const open = async (): Promise<void> => {
    if (stopped) return;
    try {
      const c = await connect();
      if (stopped) return void (await c.end().catch(() => undefined));
      // Held from here on, so that a stop during the LISTEN below ends it: a connection left open keeps
      // the process alive.
      client = c;
      c.on('notification', (n) => {
        if (n.channel === channel) onNews();
      });
      const lost = (): void => {
        if (client !== c) return;
        client = null;
        if (!stopped) reconnect = setTimeout(() => void open(), RECONNECT_MS);
      };
      c.on('end', lost);
      c.on('error', lost);
      await c.query(`LISTEN ${channel}`);
      if (!stopped) onNews();
    } catch {
      if (!stopped) reconnect = setTimeout(() => void open(), RECONNECT_MS);
    }
  };
  void open();

  return {
    async stop() {
      stopped = true;
      if (reconnect) clearTimeout(reconnect);
      const c = client;
      client = null;
      await c?.end().catch(() => undefined);
    },
  };
}

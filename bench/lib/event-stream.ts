// A reader of the web UI's event stream (GET /api/events), standing in for an open browser tab: it
// consumes every event as fast as they come, so the server's memory is measured with a live subscriber.
import http from 'node:http';

export interface EventReader {
  events(): number;
  bytes(): number;
  close(): void;
}

/** uiUrl is the `ui:` line of serve (the token rides in its fragment). */
export function readEvents(uiUrl: string): Promise<EventReader> {
  const url = new URL(uiUrl);
  const token = new URLSearchParams(url.hash.slice(1)).get('token') ?? '';
  let events = 0;
  let bytes = 0;
  let tail = '';
  return new Promise((resolve, reject) => {
    const req = http.get(
      { hostname: url.hostname, port: url.port, path: '/api/events', headers: { authorization: `Bearer ${token}`, accept: 'text/event-stream' } },
      (res) => {
        if (res.statusCode !== 200) {
          res.resume();
          reject(new Error(`GET /api/events answered ${res.statusCode}`));
          return;
        }
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          bytes += chunk.length;
          const text = tail + chunk;
          const parts = text.split('\n\n');
          tail = parts.pop() ?? '';
          for (const p of parts) if (p.startsWith('event:')) events++;
        });
        res.on('error', () => {});
        resolve({ events: () => events, bytes: () => bytes, close: () => req.destroy() });
      },
    );
    req.on('error', reject);
  });
}

import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { sign } from '../../../src-main/core/signing';
import { tempDir } from '../../helpers/temp';
import { capture } from '../../helpers/captures';

const SECRET = 'ticket-signing-secret';
const API_KEY = 'ticket-api-key-123456';

describe('ticket bundle', () => {
  it("tells one deposit's story in Markdown, with diagnoses and findings, and no secrets", async () => {
    const desk = createDesk({ home: tempDir() });
    try {
      const saved = await desk.saveProfile({ name: 'p', secret: SECRET, apiKey: API_KEY });
      expect(saved.ok).toBe(true);
      const pay = '{"userId":"u7","depositId":"d-t","currency":"EUR","amount":4,"gameId":"blocks"}';
      const win = '{"result":"WIN","userId":"u7","depositId":"d-t","roomId":"r","gameId":"blocks","currency":"EUR","amount":"8"}';
      const p = await capture(desk, {
        body: pay,
        signature: { secret: SECRET },
        response: { status: 200, body: '{"ok":true}' },
        extraHeaders: [
          ['x-api-key', API_KEY],
          ['X-Leak', SECRET],
        ],
      });
      const r1 = await capture(desk, {
        path: '/platform/results',
        body: win,
        signature: sign(Buffer.from(`${win}\n`), SECRET),
        response: null,
        error: 'Connection refused by 127.0.0.1:9',
      });
      const r2 = await capture(desk, { path: '/platform/results', body: win.replace('WIN', 'LOSE'), signature: { secret: SECRET } });
      await capture(desk, { body: '{"userId":"u8","depositId":"another","currency":"EUR","amount":1}', signature: { secret: SECRET } });

      const result = await desk.ticketBundle('d-t');
      expect(result.ok).toBe(true);
      if (!result.ok) return;
      const md = result.value;
      expect(md).toContain('## Deposit `d-t`');
      expect(md).toContain('User: `u7`');
      // The timeline table has one row per exchange of this deposit, oldest first.
      const rows = md.split('\n').filter((l) => /^\| \d+ \|/.test(l));
      expect(rows.map((l) => Number(l.split('|')[1]))).toEqual([p, r1, r2]);
      expect(rows[0]).toContain('| pay | 200 | valid |');
      expect(rows[1]).toContain('no answer: Connection refused');
      expect(rows[1]).toContain('| mismatch |');
      // Diagnoses in plain words, flags, findings.
      expect(md).toContain('the signature does not match the body');
      expect(md).toContain('trailing newline');
      expect(md).toContain('**conflicting-outcomes**');
      expect(md).toMatch(/#\d+ results WIN: error at `\$\.amount`/);
      // Secrets: the API key and the signing secret appear nowhere; signatures are shortened.
      expect(md).not.toContain(API_KEY);
      expect(md).not.toContain(SECRET);
      expect(md).not.toContain(sign(Buffer.from(pay), SECRET));
      expect(md).toContain(`${sign(Buffer.from(pay), SECRET).slice(0, 12)}… (64 chars)`);
      expect(md).toContain('x-api-key: [redacted sha256:');
      // The other deposit stays out.
      expect(md).not.toContain('another');

      const none = await desk.ticketBundle('no-such-deposit');
      expect(none.ok ? null : none.error.code).toBe('not-found');
    } finally {
      await desk.close();
    }
  });
});

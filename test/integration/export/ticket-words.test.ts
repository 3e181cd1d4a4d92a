// The ticket bundle's summary and signature words: the Game comes from whichever exchange carries it,
// and an uppercase-hex mismatch is not told as a body that does not match.
import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { sign } from '../../../src-main/core/signing';
import { capture } from '../../helpers/captures';
import { tempDir } from '../../helpers/temp';

const SECRET = 'ticket-words-secret';

describe('ticket bundle words', () => {
  it('takes the Game from the results of a deposit whose pay has none, and words an uppercase-hex mismatch as such', async () => {
    const desk = createDesk({ home: tempDir() });
    try {
      expect((await desk.saveProfile({ name: 'p', secret: SECRET })).ok).toBe(true);
      const pay = '{"userId":"u1","depositId":"d-bj","currency":"EUR","amount":100}';
      const win = '{"result":"WIN","userId":"u1","depositId":"d-bj","roomId":"r1","gameId":"blackjack","currency":"EUR","amount":200}';
      await capture(desk, { body: pay, signature: sign(Buffer.from(pay), SECRET).toUpperCase() });
      await capture(desk, { path: '/platform/results', body: win, signature: { secret: SECRET } });
      const result = await desk.ticketBundle('d-bj');
      if (!result.ok) throw new Error(result.error.message);
      const md = result.value;
      expect(md).toContain('Game: blackjack');
      expect(md).toMatch(/pay: \*\*mismatch\*\*: the right HMAC, written in uppercase hex/);
      expect(md).not.toContain('the signature does not match the body');
    } finally {
      await desk.close();
    }
  });
});

// Whose a capture is, everywhere: an action scoped to one profile refuses another's ids naming the owner
// (reverify, as redeliver does); an empty timeline or ticket of the wrong profile says whose the deposit
// is and how to open it; show, tail --all-profiles, HAR and tickets name the profile.
import { describe, expect, it, onTestFinished } from 'vitest';
import { exchangeLine } from '../../../src-main/cli/exchange-line';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import type { Har } from '../../../src-main/core/export/har-types';
import { runCli } from '../../helpers/cli';
import { capture } from '../../helpers/captures';
import { must } from '../../helpers/must';
import { tempDir } from '../../helpers/temp';

const payOf = (depositId: string): string => JSON.stringify({ userId: 'u-1', depositId, currency: 'EUR', amount: 5 });

/** Two profiles, acme (active) and lose; one capture of lose's deposit d-lose. */
async function twoProfiles(home = tempDir()): Promise<{ desk: Desk; home: string; loseId: number }> {
  const desk = createDesk({ home });
  onTestFinished(() => desk.close());
  must(await desk.saveProfile({ name: 'lose', secret: 'lose-secret', callbackPrefix: '/lose' }));
  must(await desk.saveProfile({ name: 'acme', secret: 'acme-secret', callbackPrefix: '/acme' }));
  must(await desk.useProfile('acme'));
  const loseId = await capture(desk, { path: '/lose/pay', body: payOf('d-lose'), signature: { secret: 'lose-secret' }, profile: 'lose' });
  return { desk, home, loseId };
}

describe('whose it is', () => {
  it("reverify of another profile's capture is refused, naming the owner and the way to it", async () => {
    const { desk, loseId } = await twoProfiles();
    const r = await desk.reverify({ ids: [loseId] });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.code).toBe('bad-input');
    expect(r.error.message).toBe(
      `Not profile "acme"'s: #${loseId} (profile "lose"). A re-verification judges one profile's captures with that profile's secrets: run it with --profile lose.`,
    );
    // Under its own profile it is judged.
    expect(must(await desk.reverify({ ids: [loseId], profile: 'lose' })).judged).toBe(1);
  });

  it("another profile's deposit: the timeline names whose it is, the ticket says how to open it, and names the profile", async () => {
    const { desk } = await twoProfiles();
    const timeline = must(await desk.getTimeline('d-lose'));
    expect(timeline).toMatchObject({ profile: 'acme', entries: [], otherProfiles: ['lose'] });
    expect(must(await desk.getTimeline('d-lose', 'lose')).otherProfiles).toBeUndefined();

    const ticket = await desk.ticketBundle('d-lose', 'acme');
    expect(ticket.ok).toBe(false);
    if (!ticket.ok)
      expect(ticket.error.message).toBe(`No exchanges for deposit d-lose under profile "acme"; it is profile "lose"'s: open it with --profile lose.`);
    expect(must(await desk.ticketBundle('d-lose', 'lose'))).toContain('- Profile: `lose`');
  });

  it('HAR entries, tail --all-profiles lines and show name the profile', { timeout: 60_000 }, async () => {
    const { desk, home, loseId } = await twoProfiles();
    const har = JSON.parse(must(await desk.exportHar({ direction: 'all', allProfiles: true }))) as Har;
    expect(har.log.entries.map((e) => e._wagerDesk.profile)).toEqual(['lose']);

    const row = must(await desk.listExchanges({ direction: 'all', allProfiles: true })).items[0]!;
    expect(exchangeLine(row, false, true)).toMatch(/ inbound +lose +pay +/);
    expect(exchangeLine(row)).toMatch(/ inbound +pay +d-lose /);
    await desk.close();

    const shown = await runCli(['--home', home, 'show', String(loseId)]);
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout.split('\n')).toContain('profile: lose');
  });
});

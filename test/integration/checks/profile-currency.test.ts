// A profile's currency: what templates, checks and edge cases send, and the catalog's currency cases.
import { describe, expect, it } from 'vitest';
import { openDesk } from '../../helpers/desk';
import { runCli } from '../../helpers/cli';
import { startOperator } from '../../helpers/operator';
import { closeAfterTest } from '../../helpers/closing';
import { tempDir } from '../../helpers/temp';
import { createDesk } from '../../../src-main/core/desk';

const SECRET = 'currency-secret';
/** The body an operator received, or {} where it was not JSON (the check sends an empty body too). */
const sentBody = (b: Buffer): { currency?: string; amount?: number } => {
  try {
    return JSON.parse(b.toString()) as { currency?: string; amount?: number };
  } catch {
    return {};
  }
};

describe('a profile in its own currency', () => {
  it('defaults to USD, keeps EUR once set, and refuses what is not a currency code', async () => {
    const desk = openDesk();
    const made = await desk.saveProfile({ name: 'p', secret: SECRET });
    expect(made.ok && made.value.currency).toBe('USD');
    const eur = await desk.saveProfile({ name: 'p', currency: 'eur' });
    expect(eur.ok && eur.value.currency).toBe('EUR');
    const bad = await desk.saveProfile({ name: 'p', currency: 'euro' });
    expect(bad.ok).toBe(false);
    const back = await desk.saveProfile({ name: 'p', currency: null });
    expect(back.ok && back.value.currency).toBe('USD');
  });

  it('templates, checks and edge cases send the profile currency; the currency cases send another', async () => {
    const operator = closeAfterTest(await startOperator({ secret: SECRET }));
    const desk = openDesk();
    expect((await desk.saveProfile({ name: 'jp', secret: SECRET, operatorUrl: operator.url, currency: 'JPY' })).ok).toBe(true);

    for (const kind of ['pay', 'win', 'draw', 'refund'] as const) {
      const draft = await desk.draftTemplate(kind);
      if (!draft.ok) throw new Error(draft.error.message);
      expect(sentBody(Buffer.from(draft.value.bodyBase64, 'base64')).currency).toBe('JPY');
    }

    const report = await desk.runCheck({ userId: 'yen-user' });
    if (!report.ok) throw new Error(report.error.message);
    const currencies = new Set(operator.requests.map((r) => sentBody(r.body).currency).filter((c) => c !== undefined));
    expect(currencies.size).toBeGreaterThan(0);
    // The non-canonical pay writes its currency as \u escapes: it still decodes to the profile's. Only the
    // two currency checks send another: a real one (USD on a JPY profile) and a code that is none.
    expect([...currencies].sort()).toEqual(['JPY', 'USD', 'ZZZ']);

    operator.requests.length = 0;
    const other = await desk.runEdgeCase('other-currency', { userId: 'yen-user' });
    if (!other.ok) throw new Error(other.error.message);
    expect(sentBody(operator.requests[0]!.body).currency).toBe('USD');
    // An accepted pay is refunded after the case: the next case's pay comes after that clean-up.
    const next = operator.requests.length;
    const unknown = await desk.runEdgeCase('unknown-currency', { userId: 'yen-user' });
    if (!unknown.ok) throw new Error(unknown.error.message);
    expect(sentBody(operator.requests[next]!.body).currency).toBe('ZZZ');
  });

  it('`profile set --currency` stores it and `profile list` shows it', async () => {
    const dir = tempDir();
    const set = await runCli(['--home', dir, 'profile', 'set', 'eu', '--currency', 'eur']);
    expect(set.stderr).toBe('');
    expect(set.stdout).toContain('currency: EUR');
    const refused = await runCli(['--home', dir, 'profile', 'set', 'eu', '--currency', 'euro']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('ISO 4217');
    const desk = createDesk({ home: dir });
    try {
      const list = await desk.listProfiles();
      expect(list.ok && list.value[0]!.currency).toBe('EUR');
    } finally {
      await desk.close();
    }
  });
});

// A team's log in Chromium: the web UI of a desk attached to a PostgreSQL that another desk's proxy also
// writes. A teammate's capture appears in the list as it commits, the status bar says the log is the
// team's, a replay sent from this UI reaches the operator and is read back by the teammate, a profile the
// teammate saves shows in this UI's list as it is saved, and the teammate's conformance report opens here.
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDesk, type Desk } from '../../src-main/core/desk';
import { must } from '../helpers/must';
import { startOperator, type StandInOperator } from '../helpers/operator';
import { migratedDatabase, teamKeyFile, usePostgres } from '../helpers/postgres';
import { tempDirForSuite } from '../helpers/temp';
import { goTo, openApp } from './helpers/app';
import { screenshot } from './helpers/browser';
import { openSession, type E2eSession } from './helpers/session';
import { TEST_SECRET, sendCallback, type Stack } from './helpers/stack';

const server = usePostgres();

let session: E2eSession;
let stack: Stack;
let page: Page;
let pageErrors: string[];
let operator: StandInOperator;
let teammate: Desk;
let teammateProxy: string;
let removeTeammateHome: () => void;

beforeAll(async () => {
  const database = await migratedDatabase(server());
  // Another engineer's data directory; the team's key beside it (every desk of the team reads it).
  const home = tempDirForSuite('wager-desk-teammate-');
  removeTeammateHome = home.remove;
  const keyFile = teamKeyFile(database, home.dir);
  operator = await startOperator({ secret: TEST_SECRET });
  session = await openSession({ database, keyFile });
  ({ stack, page, pageErrors } = session);
  must(await stack.desk.saveProfile({ name: 'default', operatorUrl: operator.url }));
  // The teammate's desk on the same database, with a proxy of its own.
  teammate = createDesk({ home: home.dir, database, keyFile });
  must(await teammate.saveProfile({ name: 'default', secret: TEST_SECRET, operatorUrl: operator.url }));
  must(await teammate.useProfile('default'));
  teammateProxy = must(await teammate.startProxy({ port: 0, upstream: null })).proxy.url!;
  await openApp(page, stack);
}, 120_000);

afterAll(async () => {
  await teammate?.close();
  removeTeammateHome?.();
  await operator?.close();
  await session?.close();
});

const rowOf = (depositId: string) => page.getByTestId('capture-row').filter({ has: page.getByTestId('row-deposit').getByText(depositId, { exact: true }) });

describe("a team's log in Chromium", () => {
  it("shows a teammate's capture as it commits, and says the log is the team's", async () => {
    await goTo(page, 'captures');
    await page.getByTestId('team-log').waitFor();
    expect(await page.getByTestId('counts').getAttribute('data-log')).toBe('team');
    expect(await page.getByTestId('team-log').getAttribute('title')).toMatch(/PostgreSQL at postgres:\/\/postgres:\*\*\*@/);

    const body = JSON.stringify({ userId: 'user-team', depositId: 'dep-team-1', currency: 'EUR', amount: 5 });
    const res = await sendCallback(teammateProxy, '/platform/pay', body, { secret: TEST_SECRET });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    // No reload: the row arrives through the database's notifications.
    await rowOf('dep-team-1').waitFor({ timeout: 15_000 });
    expect(await rowOf('dep-team-1').getByTestId('row-verdict').getAttribute('data-verdict')).toBe('valid');
    await screenshot(page, '40-team-log-capture');
  });

  it('replays the capture from this UI: the operator gets it, and the teammate reads the replay', async () => {
    const row = rowOf('dep-team-1');
    await row.click();
    const captureId = Number(await row.getAttribute('data-id'));
    await page.locator(`[data-testid="detail-pane"][data-exchange-id="${captureId}"] [data-testid="edit-and-replay"]`).waitFor();
    await page.getByTestId('edit-and-replay').click();
    await page.getByTestId('draft-editor').waitFor();
    await page.getByTestId('composer-send').click();
    const pane = page.locator('[data-testid="sent-pane"][data-exchange-id]');
    await pane.waitFor();
    const sentId = Number(await pane.getAttribute('data-exchange-id'));

    expect(operator.requests.at(-1)!.body.toString('utf8')).toContain('"depositId":"dep-team-1"');
    expect(operator.requests.at(-1)!.rawSignatureValid).toBe(true);
    expect(must(await teammate.getExchange(sentId))).toMatchObject({ origin: 'replay', sourceId: captureId, response: { status: 200 } });
  });

  it("shows a profile the teammate saves, without a reload: the team's profiles are one", async () => {
    await goTo(page, 'profiles');
    const card = page.locator('[data-testid="profile-card"][data-name="teammate-operator"]');
    expect(await card.count()).toBe(0);
    must(await teammate.saveProfile({ name: 'teammate-operator', secret: 'teammate-operator-secret', callbackPrefix: '/teammate-operator' }));
    await card.waitFor({ timeout: 15_000 });
    await screenshot(page, '41-team-profile-live');
  });

  it('opens a check report the teammate ran', async () => {
    const report = must(await teammate.runCheck({ to: operator.url, userId: 'team-check-user' }));
    await goTo(page, 'checks');
    const past = page.locator(`[data-testid="past-report"][data-report="${report.id}"]`);
    await past.waitFor({ timeout: 15_000 });
    await past.click();
    await page.locator(`[data-testid="check-report"][data-report="${report.id}"]`).waitFor();
  });

  it('raised no error in the page', () => {
    expect(pageErrors).toEqual([]);
  });
});

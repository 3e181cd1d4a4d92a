import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/temp';
import { openDesk, secretsOf } from '../../helpers/desk';

describe('the desk’s cache of stored secrets', () => {
  it('follows a profile changed by another process (another connection to the same data directory)', async () => {
    const home = tempDir();
    const serving = openDesk(home);
    await serving.saveProfile({ name: 'acme', secret: 'old-secret' });
    expect(secretsOf(serving).signingCandidates()[0]).toMatchObject({ profile: 'acme', secret: 'old-secret', primary: true });

    // `wager-desk profile set acme --secret-env NEW` while `serve` runs: a second desk, its own connection.
    const cli = openDesk(home);
    await cli.saveProfile({ name: 'acme', secret: 'new-secret' });
    await cli.close();
    // Another process's commit is seen from the next turn of the event loop on (one turn of the proxy's
    // work is judged against one state of the profiles).
    await new Promise((next) => setImmediate(next));

    expect(secretsOf(serving).signingCandidates()[0]).toMatchObject({ profile: 'acme', secret: 'new-secret', primary: true });
  });
});

import { describe, expect, it } from 'vitest';
import { createDesk } from '../../../src-main/core/desk';
import { tempDir } from '../../helpers/temp';
import { closeAfterEach } from '../../helpers/closing';

const closing = closeAfterEach();

describe('the desk’s cache of stored secrets', () => {
  it('follows a profile changed by another process (another connection to the same data directory)', async () => {
    const home = tempDir();
    const serving = closing(createDesk({ home }));
    await serving.saveProfile({ name: 'acme', secret: 'old-secret' });
    expect(serving.ctx.signingCandidates()[0]).toMatchObject({ profile: 'acme', secret: 'old-secret', primary: true });

    // `wager-desk profile set acme --secret-env NEW` while `serve` runs: a second desk, its own connection.
    const cli = closing(createDesk({ home }));
    await cli.saveProfile({ name: 'acme', secret: 'new-secret' });
    await cli.close();

    expect(serving.ctx.signingCandidates()[0]).toMatchObject({ profile: 'acme', secret: 'new-secret', primary: true });
  });
});

// `wager-desk captures --limit`: the store lists at most 1000 rows a call, so the CLI refuses more
// instead of cutting silently, and says how to see more when a page is full.
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src-main/core/store';
import { runCli } from '../../helpers/cli';
import { inboundRow } from '../../helpers/exchanges';
import { tempDir } from '../../helpers/temp';

describe('wager-desk captures --limit', () => {
  it('refuses more than 1000 rows, and points at the next step when there are more', async () => {
    const home = tempDir();
    const store = openStore(home);
    for (let i = 0; i < 3; i++) store.exchanges.insert(inboundRow());
    store.close();
    const tooMany = await runCli(['--home', home, 'captures', '--limit', '1001']);
    expect(tooMany.code).toBe(2);
    expect(tooMany.stderr).toContain('expected at most 1000');
    const two = await runCli(['--home', home, 'captures', '--limit', '2']);
    expect(two.code).toBe(0);
    expect(two.stdout.trim().split('\n').at(-1)).toBe('… more: raise --limit');
    const all = await runCli(['--home', home, 'captures', '--limit', '1000']);
    expect(all.stdout).not.toContain('… more');
  });
});

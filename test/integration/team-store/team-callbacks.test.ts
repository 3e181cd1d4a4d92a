// The callback URLs a desk on a team's database shows (serve's lines, the UI's callbacks block: both read
// the proxy status) are the team's profiles', also on a desk that has no active profile of its own.
import { describe, expect, it, onTestFinished } from 'vitest';
import { reachLines } from '../../../src-main/cli/commands/serve';
import { createDesk, type Desk } from '../../../src-main/core/desk';
import { must } from '../../helpers/must';
import { migratedDatabase, teamKeyFile, usePostgres } from '../../helpers/postgres';
import { tempDir } from '../../helpers/temp';

const server = usePostgres();

function deskOn(url: string): Desk {
  const desk = createDesk({ home: tempDir(), database: url, keyFile: teamKeyFile(url) });
  onTestFinished(() => desk.close());
  return desk;
}

describe("a team desk's callback URLs", () => {
  it("are the team's only profile's on a desk with no active profile", async () => {
    const url = await migratedDatabase(server());
    must(await deskOn(url).saveProfile({ name: 'team', secret: 'team-secret', callbackPrefix: '/team' }));
    const other = deskOn(url);
    expect(must(await other.getStatus()).activeProfile).toBeNull();

    const running = must(await other.startProxy({ port: 0, host: '127.0.0.1' })).proxy;
    onTestFinished(async () => void (await other.stopProxy()));
    const base = running.url!;
    expect(running.callbackUrls).toEqual({ base, pay: `${base}/team/pay`, results: `${base}/team/results` });
    expect(reachLines(running)).toEqual([`callback pay: ${base}/team/pay`, `callback results: ${base}/team/results`]);
    expect(must(await other.getStatus()).proxy.callbackUrls).toEqual(running.callbackUrls);
  });
});

// What `npm start` serves from the run's demo snapshot, held at the end of its saved history
// (DEMO_CATCH_UP=false): the documents' demo figures (npm run docs:examples), and the explorer as a
// real browser sees it (test/explorer/checkExplorerInBrowser.ts). The browser check measures the
// table's first render against its 1-second budget, so the runner runs this file alone, right after
// test/main/npmStart.test.ts (scripts/run-tests.mjs, SOLO), whose demo snapshot it serves.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { checkExplorerInBrowser } from '../explorer/checkExplorerInBrowser.ts';
import { headOf, npmStart, runSnapshotDir, type Started } from '../helpers/demoStart.ts';
import { stopMain } from '../helpers/mainProcess.ts';
import { staleDocuments, type ExampleToken } from '../../scripts/docs/demoExamples.ts';

describe('npm start at the end of its saved history (DEMO_CATCH_UP=false)', () => {
  let atEnd: Started | undefined;
  before(async () => {
    // Made by npmStart.test.ts in a whole run; this file alone makes it.
    if (!existsSync(join(runSnapshotDir, 'db.meta.json'))) await stopMain((await npmStart(runSnapshotDir)).main);
    atEnd = await npmStart(runSnapshotDir, { DEMO_CATCH_UP: 'false' });
  });
  after(async () => {
    if (atEnd) await stopMain(atEnd.main);
  });

  it("serves the documents' demo figures (npm run docs:examples)", async () => {
    const meta = JSON.parse(readFileSync(join(runSnapshotDir, 'chain.meta.json'), 'utf8')) as { head: { number: number } };
    assert.equal((await headOf(atEnd!)).number, meta.head.number, 'the chain stays at the snapshot head');
    const tokens = ((await (await fetch(`${atEnd!.url}/tokens?limit=100`)).json()) as { data: ExampleToken[] }).data;
    assert.deepEqual(staleDocuments(tokens), [], 'run npm run docs:examples');
  });

  it('serves the explorer: a real browser sees what the API answers', async (t) => {
    const report = await checkExplorerInBrowser(atEnd!.url);
    t.diagnostic(`explorer: first render of the table ${Math.round(report.firstRenderMs)} ms, ${report.apiRequests} API requests, screenshots ${report.screenshots.join(', ')}`);
  });
});

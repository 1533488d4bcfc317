// The bench's live writer (bench/lib/indexing.ts startLiveWriter): `npm run index` in its own
// process on PostgreSQL, following the demo chain while it mines trading blocks, so the
// PostgreSQL cases of `npm run bench` run with the indexer writing. Real processes, real PostgreSQL.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test } from 'node:test';
import { startLiveWriter, type LiveWriter } from '../../bench/lib/indexing.ts';
import { startChainNode } from '../../bench/lib/processes.ts';
import { openScratchPostgres } from '../helpers/testDatabases.ts';
import { skipWithoutPostgres, TEST_DATABASE_URL } from '../helpers/services.ts';

test('the live writer indexes the chain into PostgreSQL and keeps writing its new trading blocks', { skip: skipWithoutPostgres, timeout: 180_000 }, async () => {
  const schema = `bench_writer_${process.pid}`;
  const db = await openScratchPostgres(TEST_DATABASE_URL!, 'bench_writer', { schema });
  const node = await startChainNode({ hours: 1, seed: 7 });
  const dir = mkdtempSync(join(tmpdir(), 'bench-writer-'));
  let writer: LiveWriter | undefined;
  try {
    const url = new URL(TEST_DATABASE_URL!);
    url.searchParams.set('options', `-c search_path=${schema}`);
    writer = await startLiveWriter(node, { databaseUrl: url.toString(), logFile: join(dir, 'writer.log'), tradeEveryMs: 400, timeoutMs: 120_000 });
    const indexed = async () => {
      const [row] = await db.query<{ block: string; swaps: string }>(
        `SELECT (SELECT block_number::text FROM indexer_checkpoint) AS block, (SELECT count(*)::text FROM swaps) AS swaps`);
      return { block: Number(row!.block), swaps: Number(row!.swaps) };
    };
    // Caught up before trading starts: the chain's history is indexed (its swaps may be pruned already:
    // the chain's head can lie days after its history).
    const before = await indexed();
    assert.ok(before.block >= node.info.history.toBlock, `checkpoint ${before.block} at the history's end ${node.info.history.toBlock}`);
    let after = before;
    const deadline = Date.now() + 60_000;
    while ((after.block < before.block + 3 || after.swaps === before.swaps) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 500));
      after = await indexed();
    }
    const result = await writer.stop();
    writer = undefined;
    assert.ok(result.blocks >= 3, `trading blocks mined: ${result.blocks}`);
    assert.ok(result.swaps > 0, 'the trading blocks held swaps');
    assert.ok(after.block >= before.block + 3, `the indexer followed the new blocks: ${before.block} → ${after.block}`);
    assert.ok(after.swaps > before.swaps, `their swaps stored: ${before.swaps} → ${after.swaps}`);
    assert.equal(result.tradeEveryMs, 400);
    assert.ok(result.durationMs > 0);
  } finally {
    // A failed check leaves no indexer process behind.
    await writer?.stop().catch(() => undefined);
    rmSync(dir, { recursive: true, force: true });
    await node.stop();
    await db.close();
  }
});

// Where the server's autovacuum is off, the indexer vacuums the tables it rewrites every N blocks, in
// the background and one run at a time; with autovacuum on, and on PGlite, it never does. (On
// PostgreSQL, writerLock.test.ts checks the real VACUUM through a running indexer.)
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Database, SqlParam } from '../../src/db/index.ts';
import { CHURNED_TABLES } from '../../src/db/indexer/index.ts';
import { silentLogger } from '../../src/indexer/IndexerContext.ts';
import { createVacuumSchedule } from '../../src/indexer/vacuumSchedule.ts';

function fakeDatabase(kind: 'postgres' | 'pglite', autovacuum: 'on' | 'off') {
  const vacuums: string[] = [];
  let release: (() => void) | null = null;
  const db = {
    kind,
    async query(sql: string, _params?: readonly SqlParam[]) {
      if (sql.includes("current_setting('autovacuum')")) return [{ on: autovacuum === 'on' }];
      if (sql.startsWith('VACUUM')) {
        vacuums.push(sql);
        if (vacuums.length === 1) await new Promise<void>((r) => (release = r)); // the first run's first table holds until released
      }
      return [];
    },
  } as unknown as Database;
  return { db, vacuums, release: () => release?.() };
}

test('autovacuum off: a vacuum of every churned table when a step crosses a multiple of everyBlocks; none while one runs; none between multiples', async () => {
  const { db, vacuums, release } = fakeDatabase('postgres', 'off');
  const schedule = createVacuumSchedule({ db, everyBlocks: 100, logger: silentLogger });
  schedule.afterStep(150); // the first step: where the last one was is not known
  schedule.afterStep(199);
  await schedule.settled();
  assert.deepEqual(vacuums, []);
  schedule.afterStep(201); // crossed 200
  await new Promise((r) => setImmediate(r));
  schedule.afterStep(305); // crossed 300 while the first still runs: skipped
  release();
  await schedule.settled();
  assert.deepEqual(vacuums, CHURNED_TABLES.map((t) => `VACUUM ${t}`));
  schedule.afterStep(399);
  await schedule.settled();
  assert.equal(vacuums.length, CHURNED_TABLES.length);
  schedule.afterStep(400);
  await schedule.settled();
  assert.equal(vacuums.length, 2 * CHURNED_TABLES.length);
});

test('autovacuum on, PGlite, or everyBlocks 0: never', async () => {
  for (const [kind, autovacuum, everyBlocks] of [['postgres', 'on', 100], ['pglite', 'off', 100], ['postgres', 'off', 0]] as const) {
    const { db, vacuums } = fakeDatabase(kind, autovacuum);
    const schedule = createVacuumSchedule({ db, everyBlocks, logger: silentLogger });
    for (const block of [50, 150, 250, 1_000]) schedule.afterStep(block);
    await schedule.settled();
    assert.deepEqual(vacuums, [], `${kind}, autovacuum ${autovacuum}, every ${everyBlocks}`);
  }
});

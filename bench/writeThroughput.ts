// Token write throughput of the storage API as the indexer uses it, with and without the
// per-column ORDER BY indexes that migration 005 dropped (recreated here from 001_tokens.sql for
// the comparison): a full write of the bench catalogue's tokens, then batches of changed tokens
// the size of an indexer batch. Variants alternate (A B A B) so the machine's drift hits both.
//   tsx bench/writeThroughput.ts [--tokens N] [--rounds N]
// Env: BENCH_DATABASE_URL=postgres://… runs on PostgreSQL too (own schema, dropped after).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createDatabase, upsertTokens, type Database, type TokenWrite } from '../src/db/index.ts';
import { openScratchPostgres } from '../test/helpers/testDatabases.ts';
import { buildCatalogue } from './lib/catalogue.ts';
import { repoRoot } from './lib/processes.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(name);
  return i >= 0 ? Number(process.argv[i + 1]) : fallback;
};
const TOKENS = arg('--tokens', 24_000);
const ROUNDS = arg('--rounds', 2);
const BATCHES = 50;
const PER_BATCH = 200;

/** The CREATE INDEX statements of 001 that 005 drops. */
const droppedIndexes = readFileSync(join(repoRoot, 'src/db/migrations/001_tokens.sql'), 'utf8')
  .split('\n')
  .filter((line) => /^CREATE INDEX tokens_\w+\s+ON tokens/.test(line));

type Result = { fullPerSec: number; batchPerSec: number };

async function measure(db: Database, tokens: TokenWrite[], withIndexes: boolean): Promise<Result> {
  if (withIndexes) for (const sql of droppedIndexes) await db.exec(sql);
  let started = performance.now();
  for (let i = 0; i < tokens.length; i += 1000) await upsertTokens(db, tokens.slice(i, i + 1000));
  const fullPerSec = tokens.length / ((performance.now() - started) / 1000);
  started = performance.now();
  for (let b = 0; b < BATCHES; b++) {
    const at = new Date(Date.now() + b * 1000);
    const changed = Array.from({ length: PER_BATCH }, (_, k) => {
      const t = tokens[(b * 7919 + k * 104_729) % tokens.length]!;
      const price = t.currentPrice === null ? null : (Number(t.currentPrice) * (1 + ((b + k) % 7) / 100)).toFixed(12);
      return { ...t, currentPrice: price, fdv: t.fdv === null ? null : (Number(t.fdv) * 1.01).toFixed(2), at };
    });
    await db.transaction((tx) => upsertTokens(tx, changed));
  }
  const batchPerSec = (BATCHES * PER_BATCH) / ((performance.now() - started) / 1000);
  return { fullPerSec, batchPerSec };
}

function open(kind: 'pglite' | 'postgres'): Promise<Database> {
  return kind === 'pglite' ? createDatabase({ pgliteDir: 'memory://' }) : openScratchPostgres(process.env.BENCH_DATABASE_URL!, 'bench');
}

const catalogue = buildCatalogue({ count: TOKENS, seed: 59144, now: new Date() });
const kinds: ('pglite' | 'postgres')[] = process.env.BENCH_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];
for (const kind of kinds) {
  const results: Record<'with' | 'without', Result[]> = { with: [], without: [] };
  for (let round = 0; round < ROUNDS; round++) {
    for (const withIndexes of [true, false]) {
      const db = await open(kind);
      try {
        const r = await measure(db, catalogue.tokens, withIndexes);
        results[withIndexes ? 'with' : 'without'].push(r);
        process.stderr.write(`${kind} ${withIndexes ? 'with 31 indexes' : 'without'}: full ${r.fullPerSec.toFixed(0)} tokens/s, batches ${r.batchPerSec.toFixed(0)} tokens/s\n`);
      } finally {
        await db.close();
      }
    }
  }
  const mean = (rs: Result[], key: keyof Result) => rs.reduce((s, r) => s + r[key], 0) / rs.length;
  console.log(
    `${kind}: full write ${mean(results.with, 'fullPerSec').toFixed(0)} → ${mean(results.without, 'fullPerSec').toFixed(0)} tokens/s, ` +
      `indexer-sized batches ${mean(results.with, 'batchPerSec').toFixed(0)} → ${mean(results.without, 'batchPerSec').toFixed(0)} tokens/s (with → without the dropped indexes, ${ROUNDS} rounds)`,
  );
}

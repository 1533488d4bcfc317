// The window edges' query (loadTokensChangedIn) is one select per span with its own bounds (so that
// each is planned with its values: a join of the spans with the table was planned as a scan of every
// price change on a vacuumed Linea-sized database, 255 ms a step against 5 ms). The tokens it finds,
// on both stores: changes strictly after each span's start and up to its end, each token once.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { loadTokensChangedIn } from '../../src/db/indexer/index.ts';
import { testDatabases } from '../helpers/testDatabases.ts';

for (const target of testDatabases) {
  test(`${target.name}: loadTokensChangedIn finds the tokens changed inside any span, (after, upTo], each once`, { skip: target.skip }, async () => {
    const db = await target.open();
    try {
      const start = Date.parse('2026-01-01T00:00:00Z');
      // Block g observed 2g s after start, token g % 500.
      await db.query(
        `INSERT INTO indexer_price_changes (token, block_number, price, observed_at, source, carried)
         SELECT '0x' || lpad(to_hex(g % 500), 40, '0'), g, 1, to_timestamp($1::double precision / 1000 + g * 2), NULL, false
         FROM generate_series(1, 20000) g`, [start]);
      const span = (fromS: number, toS: number) => ({ after: new Date(start + fromS * 1000), upTo: new Date(start + toS * 1000) });
      const token = (g: number) => `0x${(g % 500).toString(16).padStart(40, '0')}`;
      // (1000, 1004]: blocks 501, 502; (30000, 30002]: block 15001 (token 1, as block 501); an empty span; a span after the data.
      const found = await loadTokensChangedIn(db, [span(1000, 1004), span(30_000, 30_002), span(5000, 5000), span(90_000, 90_010)]);
      assert.deepEqual(found.sort(), [token(501), token(502)].sort());
      assert.deepEqual(await loadTokensChangedIn(db, [span(5000, 5000)]), []);
    } finally {
      await db.close();
    }
  });
}

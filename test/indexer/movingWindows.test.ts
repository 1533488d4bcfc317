// A forward batch rewrites the token rows whose price-change windows moved over a stored price
// change since the batch before, not every priced token: a token that does not trade still gets
// its 1 h, 6 h, 24 h and 7 d changes updated in the batch whose window start passes its last price
// change. Checked block by block against the windows recomputed from the stored price history
// (test/oracles/priceWindows.ts), and by hand at the end. Its 24 h swap figures move by the swaps
// entering and leaving the window, checked block by block against a count of the stored swaps. And
// a token nothing happens to has its security reasons follow its age, day by day.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Contract } from 'ethers';
import { createChainClient } from '../../src/chain/index.ts';
import type { Database } from '../../src/db/index.ts';
import { createIndexer, type Indexer } from '../../src/indexer/index.ts';
import { openPglite } from '../helpers/pglite.ts';
import { getToken, recomputePriceWindows } from '../oracles/index.ts';
import { runToHead } from './helpers/runToHead.ts';
import { createWorld, type World } from './helpers/world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;
const HOUR = 3600;

/**
 * Tokens and pools whose stored 24 h figures differ from the stored swaps in the 24 h before the
 * checkpoint's chain time (a pool's swap counts once, at its larger side's value).
 */
async function countsUnlikeSwaps(db: Database): Promise<unknown[]> {
  const tokens = await db.query(
    `WITH head AS (SELECT block_time AS t FROM indexer_checkpoint),
       w AS (SELECT s.* FROM swaps s, head WHERE s.occurred_at > head.t - interval '24 hours' AND s.occurred_at <= head.t)
     SELECT t.address, t.buys, t.sells, t.swaps, t.volume24h::text AS volume,
            (SELECT count(*) FROM w WHERE w.token = t.address AND w.side = 'buy')::int AS "countedBuys",
            (SELECT count(*) FROM w WHERE w.token = t.address AND w.side = 'sell')::int AS "countedSells",
            (SELECT coalesce(sum(value_usd), 0) FROM w WHERE w.token = t.address)::text AS "countedVolume"
     FROM tokens t`);
  const pools = await db.query(
    `WITH head AS (SELECT block_time AS t FROM indexer_checkpoint),
       w AS (SELECT pool, max(value_usd) AS value FROM swaps s, head WHERE s.occurred_at > head.t - interval '24 hours' AND s.occurred_at <= head.t
             GROUP BY pool, block_number, log_index)
     SELECT p.address, p.swaps24h AS swaps, p.volume24h::text AS volume,
            (SELECT count(*) FROM w WHERE w.pool = p.address)::int AS "countedSwaps",
            (SELECT coalesce(sum(value), 0) FROM w WHERE w.pool = p.address)::text AS "countedVolume"
     FROM pools p`);
  type Row = Record<string, unknown>;
  const same = (a: unknown, b: unknown) => Number(a) === Number(b);
  return [
    ...(tokens as Row[]).filter((r) => !same(r.buys, r.countedBuys) || !same(r.sells, r.countedSells) || !same(r.swaps, Number(r.countedBuys) + Number(r.countedSells)) || !same(r.volume, r.countedVolume)),
    ...(pools as Row[]).filter((r) => !same(r.swaps, r.countedSwaps) || !same(r.volume, r.countedVolume)),
  ];
}

describe('price-change windows of a token that stops trading', () => {
  let world: World;
  let db: Database;
  let indexer: Indexer;
  let client: ReturnType<typeof createChainClient>;
  let tka: Contract, tkb: Contract, tkc: Contract, weth: Contract, tkbWeth: Contract;
  let tA = 0;
  const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();

  before(async () => {
    world = await createWorld();
    const usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 12n * e6);
    weth = await world.token('Wrapped Ether', 'WETH', 18, 10n ** 6n * e18);
    tka = await world.token('Token A', 'TKA', 18, 10n ** 6n * e18);
    tkb = await world.token('Token B', 'TKB', 18, 10n ** 6n * e18);
    tkc = await world.token('Token C', 'TKC', 18, 10n ** 6n * e18); // its pools never trade
    await world.v2Pair(usdc, weth, 300_000n * e6, 100n * e18);
    const tkaWeth = await world.v2Pair(tka, weth, 10_000n * e18, 20n * e18);
    tkbWeth = await world.v2Pair(tkb, weth, 10_000n * e18, 20n * e18);
    await world.v2Pair(tkc, weth, 10_000n * e18, 5n * e18);
    // TKC's price source: a deeper pool made 12 h after the token was first seen (the two ages cross
    // their days at different blocks).
    await world.rpc('evm_setNextBlockTimestamp', [(await world.latest()).timestamp + 12 * HOUR]);
    await world.v2Pair(tkc, usdc, 10_000n * e18, 75_000n * e6);
    // TKA's last trade, 8 days after the pools were made: its price moves once, then never again.
    tA = (await world.latest()).timestamp + 8 * 24 * HOUR;
    await world.rpc('evm_setNextBlockTimestamp', [tA]);
    await world.v2Swap(tkaWeth, weth, e18);
    db = await openPglite();
    client = createChainClient({ url: world.chain.url });
    indexer = createIndexer({
      db, chain: client,
      // One block a batch, so that each window start passes TKA's change in a batch of its own.
      config: world.config({ factories: { v2: [await addr(world.v2Factory)] }, stablecoins: [await addr(usdc)], wrappedNative: await addr(weth), batchSize: 1,
        // Circulating supplies read once in the test's 8 days: a read rewrites the row of every token it reads.
        circulatingRefreshMs: 30 * 24 * HOUR * 1000 }),
    });
    await runToHead(indexer);
  });
  after(async () => {
    await db?.close();
    client?.destroy();
    await world?.stop();
  });

  it('each window of the quiet token moves in the batch that passes its change, equal to the recomputation after every block', async () => {
    const windowsOfTka = async () => {
      const t = (await getToken(db, await addr(tka)))!;
      return { h1: t.priceChange1h, h6: t.priceChange6h, h24: t.last24hVariation, d7: t.priceChange7d };
    };
    const moved = await windowsOfTka();
    assert.ok(moved.h1 !== null && moved.h1 !== '0' && moved.d7 === moved.h1, `TKA moved against its price at creation: ${JSON.stringify(moved)}`);
    // Blocks with a TKB trade (another token's batch), each window start passing tA between two of them.
    const offsets = [0.5, 0.9, 1.1, 5.9, 6.1, 11.9, 12.1, 23.9, 24.1, 7 * 24 - 0.1, 7 * 24 + 0.1].map((h) => Math.round(h * HOUR));
    const passed: string[] = [];
    for (const [i, offset] of offsets.entries()) {
      await world.rpc('evm_setNextBlockTimestamp', [tA + offset]);
      await world.v2Swap(tkbWeth, i % 2 ? tkb : weth, i % 2 ? 10n * e18 : e18 / 100n);
      await runToHead(indexer);
      const wrong = (await recomputePriceWindows(db)).filter((w) => !w.same);
      assert.deepEqual(wrong, [], `after the block at tA + ${offset / HOUR} h: stored windows equal the recomputation`);
      assert.deepEqual(await countsUnlikeSwaps(db), [], `after the block at tA + ${offset / HOUR} h: 24 h figures equal a count of the stored swaps`);
      const [quiet] = await db.query<{ firstSeen: Date; poolMade: Date; head: Date; reasons: { code: string; detail: string }[] }>(
        `SELECT t.created_at AS "firstSeen", p.created_at AS "poolMade", c.block_time AS head, t.security_reasons AS reasons
         FROM tokens t JOIN indexer_pools p ON p.address = t.price_source, indexer_checkpoint c WHERE t.address = $1`, [await addr(tkc)]);
      const days = (since: Date) => Math.floor((quiet!.head.getTime() - since.getTime()) / 86_400_000);
      const detail = (code: string) => quiet!.reasons.find((r) => r.code === code)?.detail ?? '';
      assert.match(detail('token-age'), new RegExp(`^First seen ${days(quiet!.firstSeen)} days ago`), `TKC at tA + ${offset / HOUR} h`);
      assert.match(detail('pool-age'), new RegExp(`^Price-source pool created ${days(quiet!.poolMade)} days ago`), `TKC's pool at tA + ${offset / HOUR} h`);
      assert.ok(quiet!.poolMade.getTime() - quiet!.firstSeen.getTime() >= 12 * HOUR * 1000, 'TKC is priced by the later pool');
      const now = await windowsOfTka();
      for (const [name, value] of Object.entries(now)) if (value === '0' && !passed.includes(name)) passed.push(name);
    }
    assert.deepEqual(passed, ['h1', 'h6', 'h24', 'd7'], 'each window passed TKA\'s change in turn');
    assert.deepEqual(await windowsOfTka(), { h1: '0', h6: '0', h24: '0', d7: '0' }, 'no change left in any window');
    const tkaRow = (await getToken(db, await addr(tka)))!;
    assert.deepEqual([tkaRow.buys, tkaRow.sells, tkaRow.swaps], [0, 0, 0], 'TKA\'s trade left the 24 h window');
    const tkbRow = (await getToken(db, await addr(tkb)))!;
    assert.deepEqual([tkbRow.buys, tkbRow.sells, tkbRow.swaps], [1, 1, 2], 'TKB\'s last two trades are inside it');
  });
});

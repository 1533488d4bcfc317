// Every token's total supply is read once per refresh period even when it does not trade, at a
// slot of the period taken from its address: whatever the batch sizes, each slot is passed once
// per period, and the catalogue's reads spread over the period's blocks instead of one step.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { createChainClient } from '../../src/chain/index.ts';
import type { Database } from '../../src/db/index.ts';
import { createIndexer } from '../../src/indexer/index.ts';
import { slotPassed, supplySlot } from '../../src/indexer/refreshSupplies.ts';
import { openPglite } from '../helpers/pglite.ts';
import { runToHead } from './helpers/runToHead.ts';
import { createWorld, type World } from './helpers/world.ts';

const addresses = Array.from({ length: 2_000 }, (_, i) => `0x${(BigInt(i + 1) * 0x9e3779b97f4a7c15n).toString(16).padStart(40, '0').slice(-40)}`);

describe('supply refresh slots', () => {
  it('in consecutive batches of any size below the period, every slot is passed exactly once per period', () => {
    let seed = 7;
    const random = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (const period of [1, 7, 100, 10_000]) {
      const start = 31_579_199 + Math.floor(random() * period);
      const passed = new Map<number, number>();
      let from = start;
      while (from < start + 3 * period) {
        const to = Math.min(start + 3 * period - 1, from + Math.floor(random() * Math.min(period, 40)));
        for (let slot = 0; slot < Math.min(period, 500); slot++) if (slotPassed(slot, from, to, period)) passed.set(slot, (passed.get(slot) ?? 0) + 1);
        from = to + 1;
      }
      for (let slot = 0; slot < Math.min(period, 500); slot++) assert.equal(passed.get(slot), 3, `period ${period}, slot ${slot}: once in each of 3 periods`);
    }
  });

  it('a batch as long as the period passes every slot; one block passes only its own', () => {
    for (const slot of [0, 5, 99]) assert.ok(slotPassed(slot, 1_234, 1_333, 100));
    assert.deepEqual([0, 33, 34, 35, 99].filter((slot) => slotPassed(slot, 1_234, 1_234, 100)), [34]);
    assert.deepEqual([0, 33, 34, 35, 99].filter((slot) => slotPassed(slot, 1_299, 1_300, 100)), [0, 99], 'across a multiple of the period');
  });

  it('spreads a catalogue over the period: no block holds more than a few times its share', () => {
    const period = 100;
    const perSlot = new Map<number, number>();
    for (const address of addresses) {
      const slot = supplySlot(address, period);
      assert.ok(Number.isInteger(slot) && slot >= 0 && slot < period);
      assert.equal(supplySlot(address.toUpperCase().replace('0X', '0x'), period), slot, 'case does not matter');
      perSlot.set(slot, (perSlot.get(slot) ?? 0) + 1);
    }
    assert.ok(perSlot.size > 90, `${perSlot.size} of 100 slots used`);
    assert.ok(Math.max(...perSlot.values()) <= 3 * (addresses.length / period), `at most ${Math.max(...perSlot.values())} tokens in one block`);
  });
});

describe('supply refresh of a token that does not trade', () => {
  let world: World | undefined;
  let db: Database | undefined;
  let client: ReturnType<typeof createChainClient> | undefined;
  after(async () => {
    await db?.close();
    client?.destroy();
    await world?.stop();
  });

  it('its new total supply is stored in the one-block batch of its slot, within a period', async () => {
    world = await createWorld();
    const e18 = 10n ** 18n;
    const usdc = await world.token('USD Coin', 'USDC', 6, 10n ** 18n);
    const weth = await world.token('Wrapped Ether', 'WETH', 18, 10n ** 6n * e18);
    const quiet = await world.token('Quiet', 'QUIET', 18, 10n ** 6n * e18);
    await world.v2Pair(usdc, weth, 300_000n * 10n ** 6n, 100n * e18);
    await world.v2Pair(quiet, weth, 10_000n * e18, 20n * e18);
    const address = (await quiet.getAddress()).toLowerCase();
    // a period in which the token's slot is not the period's first block (where the old full refresh fell)
    const period = [11, 13, 17, 19].find((p) => supplySlot(address, p) !== 0)!;
    db = await openPglite();
    client = createChainClient({ url: world.chain.url });
    const indexer = createIndexer({
      db, chain: client,
      config: world.config({ factories: { v2: [(await world.v2Factory.getAddress()).toLowerCase()] }, stablecoins: [(await usdc.getAddress()).toLowerCase()],
        wrappedNative: (await weth.getAddress()).toLowerCase(), batchSize: 1, supplyRefreshBlocks: period }),
    });
    await runToHead(indexer);
    const stored = async () => (await db!.query<{ s: string }>(`SELECT total_supply::text AS s FROM tokens WHERE address = $1`, [address]))[0]!.s;
    assert.equal(await stored(), (10n ** 6n * e18).toString());
    // totalSupply is the first storage slot of DemoToken (ERC20Base): changed without an event or a trade
    const minted = 2n * 10n ** 6n * e18;
    await world.rpc('hardhat_setStorageAt', [address, '0x0', `0x${minted.toString(16).padStart(64, '0')}`]);
    let seenAt: number | null = null;
    for (let i = 0; i < period && seenAt === null; i++) {
      const block = await world.mineAt((await world.latest()).timestamp + 2);
      await runToHead(indexer);
      if ((await stored()) === minted.toString()) seenAt = block;
    }
    assert.ok(seenAt !== null, `read within ${period} blocks`);
    assert.equal(seenAt % period, supplySlot(address, period), 'in the block of its slot');
  });
});

// Contract checks on a hand-built chain (docs/security-score.md, "Contract checks"): a plain token,
// a honeypot, a fee-on-transfer token, a fiat-style token behind an EIP-1967 proxy and an
// owner-mintable token, each bought (and, where it can be, sold) by an account that is not the
// owner. The indexer's checks find each one's reasons; they stay within the call budget per round;
// a node that fails the checks' reads never stops indexing and keeps the findings stored; and the
// checks run again once their interval of chain time has passed.
import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { Contract, type JsonRpcSigner } from 'ethers';
import { ChainError, createChainClient } from '../../../src/chain/index.ts';
import { loadContract } from '../../../src/chain/contracts.ts';
import { recentSwaps, type Database } from '../../../src/db/index.ts';
import { checkSellability } from '../../../src/indexer/contractChecks/checkSellability.ts';
import { createIndexer } from '../../../src/indexer/index.ts';
import { silentLogger } from '../../../src/indexer/context/IndexerLogger.ts';
import { MAX_CALLS_PER_TOKEN } from '../../../src/indexer/contractChecks/pickContractChecks.ts';
import { openPglite } from '../../helpers/pglite.ts';
import { startProxy } from '../../chain/helpers.ts';
import { runToHead } from '../helpers/runToHead.ts';
import { createWorld, type World } from '../helpers/world.ts';

const e18 = 10n ** 18n;
const e6 = 10n ** 6n;
let world: World;
let db: Database;
let buyer: JsonRpcSigner;
let buyerAddress: string;
const tokens: Record<string, Contract> = {};
const pairs: Record<string, Contract> = {};
const CHECK_METHODS = ['eth_getCode', 'eth_getStorageAt', 'eth_getTransactionReceipt'];

const addr = async (c: Contract) => (await c.getAddress()).toLowerCase();
const send = async (p: Promise<{ wait(): Promise<unknown> }>) => void (await (await p).wait());

/** Buys `token` with USD from `pair`, as the buyer (not the owner), to the buyer. */
async function buy(symbol: string, usd: bigint) {
  const pair = pairs[symbol]!.connect(buyer) as Contract;
  const usdc = tokens.USDC!.connect(buyer) as Contract;
  const [r0, r1] = (await pair.getFunction('getReserves')()) as [bigint, bigint];
  const usdIs0 = ((await pair.getFunction('token0')()) as string).toLowerCase() === (await addr(tokens.USDC!));
  const [rin, rout] = usdIs0 ? [r0, r1] : [r1, r0];
  const out = (usd * 997n * rout) / (rin * 1000n + usd * 997n);
  await send(usdc.getFunction('transfer')(await pair.getAddress(), usd));
  await send(pair.getFunction('swap')(usdIs0 ? 0n : out, usdIs0 ? out : 0n, buyerAddress, '0x'));
}

/** Sells `amount` of `token` into its pair as the buyer, paying out what the pair actually received. */
async function sell(symbol: string, amount: bigint) {
  const pair = pairs[symbol]!.connect(buyer) as Contract;
  const token = tokens[symbol]!.connect(buyer) as Contract;
  const tokenIs0 = ((await pair.getFunction('token0')()) as string).toLowerCase() === (await addr(tokens[symbol]!));
  const [r0, r1] = (await pair.getFunction('getReserves')()) as [bigint, bigint];
  const [rin, rout] = tokenIs0 ? [r0, r1] : [r1, r0];
  await send(token.getFunction('transfer')(await pair.getAddress(), amount));
  const received = ((await token.getFunction('balanceOf')(await pair.getAddress())) as bigint) - rin;
  const out = (received * 997n * rout) / (rin * 1000n + received * 997n);
  await send(pair.getFunction('swap')(tokenIs0 ? 0n : out, tokenIs0 ? out : 0n, buyerAddress, '0x'));
}

before(async () => {
  world = await createWorld();
  buyer = await world.provider.getSigner(1);
  buyerAddress = (await buyer.getAddress()).toLowerCase();
  const me = world.me;
  tokens.USDC = await world.token('USD Coin', 'USDC', 6, 10n ** 12n * e6);
  tokens.PLAIN = await world.token('Plain', 'PLAIN', 18, 10n ** 9n * e18);
  tokens.HONEY = await world.deploy('DemoHoneypotToken', ['Honey', 'HONEY', 18, 10n ** 9n * e18, me]);
  tokens.TAXY = await world.deploy('DemoTaxToken', ['Taxed', 'TAXY', 18, 10n ** 9n * e18, me, 300n]);
  tokens.MNTR = await world.deploy('DemoMintableToken', ['Minter', 'MNTR', 18, 10n ** 9n * e18, me]);
  const implementation = await world.deploy('DemoFiatToken', []);
  const init = implementation.interface.encodeFunctionData('initialize', ['Fiat', 'FIAT', 6, 10n ** 12n * e6, me, me]);
  const proxy = await world.deploy('DemoUpgradeableProxy', [await implementation.getAddress(), '0x000000000000000000000000000000000000a11c', init, false]);
  tokens.FIAT = new Contract(await proxy.getAddress(), loadContract('DemoFiatToken').abi as never, world.signer);
  await send(tokens.USDC.getFunction('transfer')(buyerAddress, 1_000_000n * e6));
  for (const symbol of ['PLAIN', 'HONEY', 'TAXY', 'MNTR', 'FIAT']) {
    const token = tokens[symbol]!;
    const unit = symbol === 'FIAT' ? e6 : e18;
    pairs[symbol] = await world.v2Pair(token, tokens.USDC, 1_000_000n * unit, 500_000n * e6);
    if (symbol === 'HONEY' || symbol === 'TAXY') await send(token.getFunction('setPool')(await pairs[symbol]!.getAddress()));
    await buy(symbol, 5_000n * e6);
  }
  await sell('PLAIN', 1_000n * e18);
  await sell('TAXY', 1_000n * e18);
  db = await openPglite();
});

after(async () => {
  await db?.close();
  await world?.stop();
});

type Reason = { code: string; impact: number; detail: string };
async function reasonsOf(symbol: string): Promise<Reason[]> {
  const rows = await db.query<{ reasons: Reason[] }>(`SELECT security_reasons AS reasons FROM tokens WHERE address = $1`, [await addr(tokens[symbol]!)]);
  return rows[0]?.reasons ?? [];
}
const impacts = (reasons: Reason[]) => Object.fromEntries(reasons.filter((r) => !['baseline', 'liquidity', 'token-age', 'pool-age', 'trading-activity'].includes(r.code)).map((r) => [r.code, r.impact]));

test('contract checks: reasons per case, within the call budget per round, through node faults and on the interval', async () => {
  let failChecks = false;
  const perRound: number[] = [0];
  const proxy = await startProxy(world.chain.url, (body) => {
    if (CHECK_METHODS.includes(body.method)) {
      perRound[perRound.length - 1]! += 1;
      if (failChecks) return { status: 503 };
    }
    return null;
  });
  const maxCalls = 2 * MAX_CALLS_PER_TOKEN; // two tokens a round
  const config = world.config({
    factories: { v2: [(await world.v2Factory.getAddress()).toLowerCase()] }, stablecoins: [await addr(tokens.USDC!)],
    contractCheckMaxCalls: maxCalls, contractCheckIntervalMs: 6 * 3_600_000, contractCheckTimeoutMs: 10_000,
  });
  const chain = createChainClient({ url: proxy.url, maxRetries: 1, retryBaseMs: 5 });
  // Each stored round's 'contract checks stored' line: how many tokens it stored and rescored.
  const storedRounds: { tokens: number; rescored: number }[] = [];
  const logger = { ...silentLogger, debug: (obj: object, msg?: string) => void (msg === 'contract checks stored' && storedRounds.push(obj as (typeof storedRounds)[number])) };
  const indexer = createIndexer({ db, chain, config, logger });
  try {
    // The batch's step starts the first round beside the indexer: the step itself does not wait for it.
    await runToHead(indexer);
    assert.equal(indexer.status().contractChecks, 0, 'nothing stored by the step that started the checks');
    // Six priced tokens at two a round: each round is stored by the next step, which starts the next round.
    for (let round = 1; round <= 3; round++) {
      await indexer.settleContractChecks();
      assert.equal(indexer.status().contractChecks, 2 * round, `two tokens stored by round ${round}`);
      perRound.push(0);
    }
    await indexer.settleContractChecks();
    assert.equal(indexer.status().contractChecks, 6, 'every priced token checked, none twice');
    // Storing a round rescores its own tokens only: every other score is already as at the checkpoint
    // (the step's write put it there), and rescoring the whole catalogue per round cost a following
    // step ~0.4 s at 18,000 tokens.
    assert.ok(storedRounds.length >= 3, `rounds stored: ${JSON.stringify(storedRounds)}`);
    for (const round of storedRounds) assert.equal(round.rescored, round.tokens, `a round of ${round.tokens} tokens rescored ${round.rescored}`);
    // eth_getCode, eth_getStorageAt and receipts are part of a check's calls: each round stays within the budget.
    for (const n of perRound) assert.ok(n <= maxCalls, `a round made ${n} check calls (budget ${maxCalls})`);
    assert.ok(perRound.filter((n) => n > 0).length >= 3, `three rounds made calls: ${perRound}`);

    assert.deepEqual(impacts(await reasonsOf('PLAIN')), { sellable: 0 });
    const honey = await reasonsOf('HONEY');
    assert.deepEqual(impacts(honey), { 'sell-reverts': -80, owner: -1 });
    assert.match(honey.find((r) => r.code === 'sell-reverts')!.detail, new RegExp(`recent buyer ${buyerAddress} .*reverts: TRANSFER_FAILED`));
    const taxed = await reasonsOf('TAXY');
    assert.deepEqual(impacts(taxed), { sellable: 0, owner: -1, 'transfer-tax': -25 });
    assert.match(taxed.find((r) => r.code === 'transfer-tax')!.detail, /lost 3\.0 %/);
    assert.deepEqual(impacts(await reasonsOf('MNTR')), { sellable: 0, owner: -1, mint: -3 });
    const fiat = await reasonsOf('FIAT');
    assert.deepEqual(impacts(fiat), { sellable: 0, owner: -1, upgradeable: -5, mint: -3, pause: -1, blacklist: -2 });
    assert.match(fiat.find((r) => r.code === 'upgradeable')!.detail, /EIP-1967\): implementation 0x[0-9a-f]{40}, admin 0x000000000000000000000000000000000000a11c/);
    const scoreOf = async (symbol: string) =>
      (await db.query<{ s: number }>(`SELECT security_score AS s FROM tokens WHERE address = $1`, [await addr(tokens[symbol]!)]))[0]!.s;
    assert.ok((await scoreOf('HONEY')) <= 10, 'the honeypot scores at most 10');

    // A node that refuses the checks' reads: indexing goes on, the stored findings stay.
    const stored = await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM indexer_contract_checks`);
    failChecks = true;
    const { timestamp } = await world.latest();
    await world.mineAt(timestamp + 7 * 3600); // past the interval: every token is due again
    const before = indexer.status();
    const result = await indexer.syncOnce();
    assert.ok(result.batch, 'the batch was indexed');
    await indexer.settleContractChecks();
    const after = indexer.status();
    assert.equal(after.indexedBlock, result.batch.toBlock);
    assert.equal(after.lastError, null, 'the step did not fail');
    assert.ok(after.contractCheckFailures > before.contractCheckFailures, 'failed checks are counted');
    assert.equal(after.contractChecks, before.contractChecks, 'nothing was stored from failed reads');
    assert.deepEqual(await db.query(`SELECT count(*)::int AS n FROM indexer_contract_checks`), stored);
    assert.deepEqual(impacts(await reasonsOf('HONEY')), { 'sell-reverts': -80, owner: -1 }, 'previous findings still scored');

    // The node recovers: the due tokens are checked again at the new head.
    failChecks = false;
    for (let i = 0; i < 3; i++) {
      await indexer.syncOnce();
      await indexer.settleContractChecks();
    }
    const rows = await db.query<{ block: string }>(`SELECT block_number::text AS block FROM indexer_contract_checks`);
    assert.equal(rows.length, 6);
    const head = (await world.latest()).number;
    assert.ok(rows.every((r) => Number(r.block) === head), 'every token checked again at the new head');

    // A restart reads the findings back: same scores, nothing checked again before the interval.
    const scores = await db.query(`SELECT address, security_score, security_reasons FROM tokens ORDER BY address`);
    await indexer.stop();
    const restarted = createIndexer({ db, chain, config });
    await runToHead(restarted);
    await restarted.settleContractChecks();
    assert.equal(restarted.status().contractChecks, 0, 'no token is due again after a restart');
    assert.deepEqual(await db.query(`SELECT address, security_score, security_reasons FROM tokens ORDER BY address`), scores);
    await restarted.stop();
  } finally {
    await indexer.stop();
    chain.destroy();
    await proxy.close();
  }
});

test('a node that refuses receipts outright gives no tax evidence and no buyer to simulate a sale with (sell-untested); a transient failure fails the check', async () => {
  let mode: 'refuse' | 'down' = 'refuse';
  const proxy = await startProxy(world.chain.url, (body) =>
    body.method !== 'eth_getTransactionReceipt'
      ? null
      : mode === 'refuse'
        ? { status: 200, body: { jsonrpc: '2.0', id: body.id, error: { code: -32601, message: 'the method eth_getTransactionReceipt does not exist/is not available' } } }
        : { status: 503 });
  const chain = createChainClient({ url: proxy.url, maxRetries: 1, retryBaseMs: 5 });
  try {
    const block = (await world.latest()).number;
    const input = async (symbol: string) => {
      const token = await addr(tokens[symbol]!);
      return { chain, token, block, multicall: world.config().multicall3, swaps: await recentSwaps(db, token), pool: (await pairs[symbol]!.getAddress()).toLowerCase() };
    };
    const taxed = await checkSellability(await input('TAXY'));
    assert.deepEqual(taxed.taxes, [], 'no receipts, no tax evidence');
    assert.equal(taxed.sell.result, 'untested', 'no receipt, no recent buyer known');
    mode = 'down';
    await assert.rejects(
      checkSellability(await input('TAXY')),
      (e: unknown) => e instanceof ChainError && e.retryable && e.method === 'eth_getTransactionReceipt',
      'a node that is down fails the check',
    );
  } finally {
    chain.destroy();
    await proxy.close();
  }
});

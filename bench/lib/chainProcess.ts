// The benchmark's chain node, forked by bench/run.ts so that its event loop never competes
// with autocannon's: the embedded Hardhat/EDR demo chain over HTTP JSON-RPC on 127.0.0.1,
// the demo deployment and a back-dated trading history. IPC protocol (process.send):
//   child -> parent  { type: 'ready', info: ChainInfo }            once started
//   parent -> child  { type: 'trade', id }                          mine one block of trades
//   child -> parent  { type: 'traded', id, block, timestamp, ms }   after the block is mined
// The child exits when the parent disconnects.
import { createDemoClient, type DemoClient } from '../../src/demo/client.ts';
import { createMarket, tradeBlock, type Market } from '../../src/demo/market.ts';
import { createPrng } from '../../src/demo/prng.ts';
import { deployDemo, simulateHistory, startDemoChain, type DemoDeployment } from '../../src/demo/index.ts';
import { CATALOGUE_BLOCKS_BELOW } from './catalogue.ts';

export type TxRef = { hash: string; blockNumber: string; index: string };

export type ChainInfo = {
  url: string;
  chainId: number;
  deployment: DemoDeployment;
  history: { swaps: number; fromBlock: number; toBlock: number; durationMs: number };
  /** Mined transactions of the history, for the RPC lookups. */
  txs: TxRef[];
  startupMs: number;
};

export type ChainMessage =
  | { type: 'ready'; info: ChainInfo }
  | { type: 'traded'; id: number; block: number; timestamp: number; ms: number; swaps: number }
  | { type: 'error'; message: string };

const hours = Number(process.env.BENCH_CHAIN_HOURS ?? 26);
const seed = Number(process.env.BENCH_SEED ?? 59144);
const maxTxs = 2000;

async function main(): Promise<void> {
  const started = performance.now();
  // The chain starts above every block the seeded catalogue writes (one empty block a second up to
  // there, mined at once): the live writer's indexer then never mistakes the catalogue's swaps for its own.
  const skipBlocks = CATALOGUE_BLOCKS_BELOW;
  const chain = await startDemoChain({ host: '127.0.0.1', initialDate: new Date(Date.now() - (hours + 1) * 3_600_000 - skipBlocks * 1000) });
  await createDemoClient(chain).then((c) => c.request('hardhat_mine', [`0x${skipBlocks.toString(16)}`]));
  const deployment = await deployDemo(chain);
  const history = await simulateHistory(chain, deployment, { seed, hours });
  const c = await createDemoClient(chain);
  const txs: TxRef[] = [];
  for (let n = history.fromBlock; n <= history.toBlock && txs.length < maxTxs; n++) {
    const block = await c.request<{ number: string; transactions: string[] } | null>('eth_getBlockByNumber', [`0x${n.toString(16)}`, false]);
    block?.transactions.forEach((hash, i) => txs.push({ hash, blockNumber: block.number, index: `0x${i.toString(16)}` }));
  }
  const send = (m: ChainMessage) => process.send?.(m);
  send({
    type: 'ready',
    info: {
      url: chain.url,
      chainId: chain.chainId,
      deployment,
      history: { swaps: history.swaps, fromBlock: history.fromBlock, toBlock: history.toBlock, durationMs: history.durationMs },
      txs: txs.slice(0, maxTxs),
      startupMs: Math.round(performance.now() - started),
    },
  });

  let market: Market | undefined;
  let queue: Promise<void> = Promise.resolve();
  process.on('message', (raw: unknown) => {
    const m = raw as { type?: string; id?: number };
    if (m.type !== 'trade' || typeof m.id !== 'number') return;
    const id = m.id;
    queue = queue.then(async () => {
      const t0 = performance.now();
      try {
        market ??= await createMarket(c, deployment, createPrng(seed ^ 0x11fe), Math.floor(Date.now() / 1000));
        const swapsBefore = market.counters.swapsV2 + market.counters.swapsV3 + market.counters.swapsPancakeV3 + market.counters.swapsV4;
        await trade(c, market);
        const swaps = market.counters.swapsV2 + market.counters.swapsV3 + market.counters.swapsPancakeV3 + market.counters.swapsV4 - swapsBefore;
        const latest = await c.latestBlock();
        send({ type: 'traded', id, block: latest.number, timestamp: latest.timestamp, ms: Math.round(performance.now() - t0), swaps });
      } catch (error) {
        send({ type: 'error', message: error instanceof Error ? error.message : String(error) });
      }
    });
  });
  process.on('disconnect', () => {
    void chain.stop().finally(() => process.exit(0));
  });
}

async function trade(c: DemoClient, market: Market): Promise<void> {
  await c.setAutomine(false);
  try {
    await tradeBlock(market, undefined);
  } finally {
    await c.setAutomine(true);
  }
}

main().catch((error: unknown) => {
  process.send?.({ type: 'error', message: error instanceof Error ? (error.stack ?? error.message) : String(error) } satisfies ChainMessage);
  process.exit(1);
});

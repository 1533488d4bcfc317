// The simulated node's filtered eth_getLogs skips blocks through its emitter index: the answers
// equal a scan that generates every block of the range and filters by the JSON-RPC rules (written
// here, apart from the node's code), for address, topic and mixed filters, before and after a
// reorganisation; and a filter that matches few blocks generates only those.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TOPIC0 } from '../../sim/abi.ts';
import { SimChain } from '../../sim/chain.ts';
import { EmitterIndex } from '../../sim/emitterIndex.ts';
import { createMethods } from '../../sim/rpc.ts';

type Log = { address: string; topics: string[]; data: string; blockNumber: string; logIndex: string; transactionHash: string };
type Filter = { fromBlock: string; toBlock: string; address?: string | string[]; topics?: (string | string[] | null)[] };
const hex = (n: number) => '0x' + n.toString(16);

/** Every log of [from, to] that the filter selects, from every generated block. */
function scan(chain: SimChain, filter: Filter): string[] {
  const from = Number(filter.fromBlock);
  const to = Math.min(Number(filter.toBlock), chain.head);
  const addresses = filter.address === undefined ? null : [filter.address].flat().map((a) => a.toLowerCase());
  const out: string[] = [];
  for (let n = from; n <= to; n++) {
    const block = chain.block(n)!;
    let logIndex = 0;
    block.txs.forEach((tx, txIndex) => {
      for (const log of tx.logs) {
        const index = logIndex++;
        if (addresses && !addresses.includes(log.address)) continue;
        const topics = log.topics;
        const ok = (filter.topics ?? []).every((want, k) => want === null || (topics[k] !== undefined && [want].flat().includes(topics[k]!)));
        if (ok) out.push(`${n}/${index}/${block.txHashes[txIndex]}/${log.address}/${topics.join(',')}/${log.data}`);
      }
    });
  }
  return out;
}

const asKeys = (logs: Log[]) => logs.map((l) => `${Number(l.blockNumber)}/${Number(l.logIndex)}/${l.transactionHash}/${l.address}/${l.topics.join(',')}/${l.data}`);

function filtersOf(chain: SimChain): Filter[] {
  const w = chain.world;
  const range = { fromBlock: hex(0), toBlock: hex(chain.head) };
  const trading = { fromBlock: hex(w.tradingFrom), toBlock: hex(chain.head) };
  const pools = w.pools.filter((p) => p.family !== 'v4').slice(0, 5).map((p) => p.id);
  const token = w.tokens[3]!.address;
  return [
    { ...range, address: Object.values(w.factories) },
    { ...range, address: w.factories.v2, topics: [TOPIC0.pairCreated] },
    { ...trading, address: pools },
    { ...trading, address: pools.map((a) => a.toUpperCase().replace('0X', '0x')), topics: [[TOPIC0.v2Sync, TOPIC0.v3Swap]] },
    { ...trading, topics: [TOPIC0.transfer] },
    { ...trading, address: token, topics: [TOPIC0.transfer, null, null] },
    { ...trading, topics: [null, null] },
    { ...trading, address: w.factories.v4, topics: [TOPIC0.v4Swap] },
    { ...range, address: '0x000000000000000000000000000000000000beef' },
    { ...range, topics: ['0x' + 'ab'.repeat(32)] },
    { fromBlock: hex(w.tradingFrom + 3), toBlock: hex(w.tradingFrom + 40) },
  ];
}

test('filtered eth_getLogs equals a scan of every block, before and after a reorganisation', () => {
  const chain = new SimChain({ profile: 'demo-size', seed: 2, overrides: { tradingBlocks: 400 } });
  const { getLogs } = createMethods(chain);
  const check = (label: string) => {
    for (const filter of filtersOf(chain)) {
      const answer = asKeys(getLogs(filter as never) as Log[]);
      assert.deepEqual(answer, scan(chain, filter), `${label}: ${JSON.stringify(filter)}`);
    }
  };
  check('first branch');
  const counts = filtersOf(chain).map((f) => scan(chain, f).length);
  assert.ok(counts.slice(0, 8).every((c) => c > 0), `every named filter but the empty ones selects logs: ${counts}`);
  chain.reorg(12);
  check('after a reorganisation');
  chain.mine(5);
  check('after mining');
});

test('a filter matching few blocks generates only those blocks', () => {
  const chain = new SimChain({ profile: 'demo-size', seed: 2, overrides: { tradingBlocks: 3000 } });
  const { getLogs } = createMethods(chain);
  chain.clearCache();
  const pool = chain.world.pools.find((p) => p.family === 'v2')!;
  const logs = getLogs({ fromBlock: hex(chain.world.tradingFrom), toBlock: hex(chain.head), address: pool.id, topics: [TOPIC0.v2Sync] } as never) as Log[];
  const blocks = new Set(logs.map((l) => l.blockNumber));
  assert.ok(blocks.size > 0);
  assert.equal(chain.cachedBlocks(), blocks.size, 'blocks generated');
});

test('the emitter index keeps each block\'s (emitter, topic0) pairs and forgets a reorganised tail', () => {
  const index = new EmitterIndex();
  const a = '0x' + 'a'.repeat(40);
  const b = '0x' + 'b'.repeat(40);
  const [t1, t2] = ['0x' + '1'.repeat(64), '0x' + '2'.repeat(64)];
  index.record(5, [{ address: a, topic0: t1 }, { address: a, topic0: t1 }]);
  index.record(9, [{ address: b, topic0: t2 }, { address: a, topic0: undefined }]);
  index.record(12, []);
  const all = (filter: { addresses: Set<string> | null; topic0s: Set<string> | null }, from = 0, to = 100) => [...index.candidates(from, to, filter)];
  assert.deepEqual(all({ addresses: null, topic0s: null }), [5, 9]);
  assert.deepEqual(all({ addresses: new Set([a]), topic0s: null }), [5, 9]);
  assert.deepEqual(all({ addresses: new Set([a]), topic0s: new Set([t1]) }), [5]);
  assert.deepEqual(all({ addresses: new Set([a]), topic0s: new Set([t2]) }), [], 'a pair from different logs does not match');
  assert.deepEqual(all({ addresses: null, topic0s: new Set([t2]) }), [9]);
  assert.deepEqual(all({ addresses: new Set(['0x' + 'c'.repeat(40)]), topic0s: null }), []);
  assert.deepEqual(all({ addresses: null, topic0s: null }, 6, 9), [9]);
  assert.throws(() => index.record(12, []), /out of order/);
  index.truncateFrom(9);
  assert.deepEqual(all({ addresses: null, topic0s: null }), [5]);
  index.record(10, [{ address: b, topic0: t1 }]);
  assert.deepEqual(all({ addresses: new Set([b]), topic0s: new Set([t1]) }), [10]);
});

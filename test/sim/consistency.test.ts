// The simulated chain is consistent and deterministic: the logs, replayed by an independent decoder
// (ethers' ABI coder on the events' own declarations), give the state every call answers at sampled
// blocks (pool states of every family, V4 through extsload, balances, supplies, the feed), on the
// first branch and again after a reorganisation; the same seed and profile give the same chain.
// Concentrated pools are replayed with their positions: Mint/Burn/ModifyLiquidity change the active
// liquidity only when their range holds the tick, and every Swap's liquidity must equal the sum of
// the liquidityNet of the initialized ticks at or below its tick (so crossings are checked).
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { AbiCoder, Interface, keccak256 } from 'ethers';
import { SimChain } from '../../sim/chain.ts';
import { sqrtAtTick, tickOf } from '../../sim/math.ts';
import { createMethods } from '../../sim/rpc.ts';
import { computeTruth } from '../../sim/truth.ts';

const coder = AbiCoder.defaultAbiCoder();
const events = new Interface([
  'event Transfer(address indexed from, address indexed to, uint256 value)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Sync(uint256 reserve0, uint256 reserve1)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick)',
  'event Swap(address indexed sender, address indexed recipient, int256 amount0, int256 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint128 p0, uint128 p1)',
  'event Initialize(uint160 sqrtPriceX96, int24 tick)',
  'event Mint(address sender, address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Burn(address indexed owner, int24 indexed tickLower, int24 indexed tickUpper, uint128 amount, uint256 amount0, uint256 amount1)',
  'event Initialize(bytes32 indexed id, address indexed currency0, address indexed currency1, uint24 fee, int24 tickSpacing, address hooks, uint160 sqrtPriceX96, int24 tick)',
  'event Swap(bytes32 indexed id, address indexed sender, int128 amount0, int128 amount1, uint160 sqrtPriceX96, uint128 liquidity, int24 tick, uint24 fee)',
  'event ModifyLiquidity(bytes32 indexed id, address indexed sender, int24 tickLower, int24 tickUpper, int256 liquidityDelta, bytes32 salt)',
  'event AnswerUpdated(int256 indexed current, uint256 indexed roundId, uint256 updatedAt)',
]);
const views = new Interface([
  'function getReserves() view returns (uint256, uint256)', 'function slot0() view returns (uint160, int24)', 'function globalState() view returns (uint160, int24)',
  'function liquidity() view returns (uint128)', 'function balanceOf(address) view returns (uint256)', 'function totalSupply() view returns (uint256)',
  'function extsload(bytes32) view returns (bytes32)', 'function latestRoundData() view returns (uint80, int256, uint256, uint256, uint80)',
]);
const ZERO = '0x0000000000000000000000000000000000000000';

type Log = { address: string; topics: string[]; data: string; blockNumber: string };
type ReplayedPool = { a: bigint; b: bigint; tick?: number; nets?: Map<number, bigint> };
type Replayed = {
  pools: Map<string, ReplayedPool>; balances: Map<string, bigint>; supplies: Map<string, bigint>; feed: bigint | null;
  /** Swaps whose liquidity differs from the pool's before them (a tick crossed); position changes outside the tick. */
  crossings: number; outsideMints: { pool: string; block: number }[]; swaps: number;
};

/** Everything the logs say up to `block`, by an independent reading of them. */
// Each event's decoder by topic0 (Interface.parseLog tries fragments in turn: ten times slower).
type Decoded = { signature: string; args: unknown[] };
const decoders = new Map<string, (log: Log) => Decoded>();
events.forEachEvent((fragment) => {
  const indexed = fragment.inputs.filter((i) => i.indexed).map((i) => i.type);
  const plain = fragment.inputs.filter((i) => !i.indexed).map((i) => i.type);
  decoders.set(fragment.topicHash, (log) => {
    const fromTopics = indexed.map((type, k) => coder.decode([type], log.topics[k + 1]!)[0]);
    const fromData = [...coder.decode(plain, log.data)];
    let [t, d] = [0, 0];
    return { signature: fragment.format('sighash'), args: fragment.inputs.map((i) => (i.indexed ? fromTopics[t++] : fromData[d++])) };
  });
});
type Parsed = { log: Log; e: Decoded };
const parseAll = (logs: Log[]): Parsed[] => logs.flatMap((log) => {
  const decode = decoders.get(log.topics[0]!);
  return decode ? [{ log, e: decode(log) }] : [];
});

function replay(parsed: Parsed[], block: number, manager: string): Replayed {
  const r: Replayed = { pools: new Map(), balances: new Map(), supplies: new Map(), feed: null, crossings: 0, outsideMints: [], swaps: 0 };
  const add = (m: Map<string, bigint>, k: string, d: bigint) => m.set(k, (m.get(k) ?? 0n) + d);
  /** A position change: the ticks' net liquidity, and the active liquidity when the range holds the tick. */
  const position = (pool: ReplayedPool, key: string, lower: number, upper: number, delta: bigint, block: number) => {
    const nets = pool.nets!;
    nets.set(lower, (nets.get(lower) ?? 0n) + delta);
    nets.set(upper, (nets.get(upper) ?? 0n) - delta);
    if (lower <= pool.tick! && pool.tick! < upper) pool.b += delta;
    else if (delta > 0n) r.outsideMints.push({ pool: key, block });
  };
  const swap = (pool: ReplayedPool, key: string, sqrtP: bigint, liquidity: bigint, tick: number, block: number) => {
    // Uniswap's tick: the floor tick of √P, or at a tick's exact √ratio reached going down, the one below.
    const floor = tickOf(sqrtP);
    assert.ok(tick === floor || (tick === floor - 1 && sqrtAtTick(floor) === sqrtP), `pool ${key} block ${block}: tick ${tick} for √P ${sqrtP} (floor ${floor})`);
    let active = 0n;
    for (const [t, net] of pool.nets!) if (t <= tick) active += net;
    assert.equal(liquidity, active, `pool ${key} block ${block}: the swap's liquidity is the positions' at tick ${tick}`);
    if (liquidity !== pool.b) r.crossings++;
    r.swaps++;
    Object.assign(pool, { a: sqrtP, b: liquidity, tick });
  };
  for (const { log, e } of parsed) {
    if (Number(log.blockNumber) > block) break;
    const a = log.address;
    const key = a === manager ? (log.topics[1] as string) : a;
    const pool = r.pools.get(key);
    switch (e.signature) {
      case 'Transfer(address,address,uint256)': {
        const [from, to, value] = e.args as unknown as [string, string, bigint];
        if (from === ZERO) add(r.supplies, a, value);
        else add(r.balances, `${a}:${from.toLowerCase()}`, -value);
        if (to === ZERO) add(r.supplies, a, -value);
        else add(r.balances, `${a}:${to.toLowerCase()}`, value);
        break;
      }
      case 'Sync(uint112,uint112)':
      case 'Sync(uint256,uint256)':
        r.pools.set(key, { a: e.args[0] as bigint, b: e.args[1] as bigint });
        break;
      case 'Initialize(uint160,int24)':
        r.pools.set(key, { a: e.args[0] as bigint, b: 0n, tick: Number(e.args[1]), nets: new Map() });
        break;
      case 'Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)':
        r.pools.set(key, { a: e.args[6] as bigint, b: 0n, tick: Number(e.args[7]), nets: new Map() });
        break;
      case 'Mint(address,address,int24,int24,uint128,uint256,uint256)':
        position(pool!, key, Number(e.args[2]), Number(e.args[3]), e.args[4] as bigint, Number(log.blockNumber));
        break;
      case 'Burn(address,int24,int24,uint128,uint256,uint256)':
        position(pool!, key, Number(e.args[1]), Number(e.args[2]), -(e.args[3] as bigint), Number(log.blockNumber));
        break;
      case 'ModifyLiquidity(bytes32,address,int24,int24,int256,bytes32)':
        position(pool!, key, Number(e.args[2]), Number(e.args[3]), e.args[4] as bigint, Number(log.blockNumber));
        break;
      case 'Swap(address,address,int256,int256,uint160,uint128,int24)':
      case 'Swap(address,address,int256,int256,uint160,uint128,int24,uint128,uint128)':
      case 'Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)':
        if (pool?.nets) swap(pool, key, e.args[4] as bigint, e.args[5] as bigint, Number(e.args[6]), Number(log.blockNumber));
        else r.pools.set(key, { a: e.args[4] as bigint, b: e.args[5] as bigint });
        break;
      case 'AnswerUpdated(int256,uint256,uint256)':
        r.feed = e.args[0] as bigint;
        break;
    }
  }
  return r;
}

function checkAt(chain: SimChain, logs: Parsed[], block: number) {
  const { methods } = createMethods(chain);
  const w = chain.world;
  const tag = '0x' + block.toString(16);
  const call = (to: string, data: string) => methods.eth_call!([{ to, data }, tag]) as string;
  const r = replay(logs, block, w.addresses.poolManager);
  let checked = 0;
  for (const pool of w.pools) {
    const want = r.pools.get(pool.id);
    if (!want) continue;
    let got: { a: bigint; b: bigint; tick?: number };
    if (pool.family === 'v4') {
      const slot0 = BigInt(call(w.addresses.poolManager, views.encodeFunctionData('extsload', ['0x' + pool.v4Slot!.toString(16).padStart(64, '0')])));
      const liq = BigInt(call(w.addresses.poolManager, views.encodeFunctionData('extsload', ['0x' + (pool.v4Slot! + 3n).toString(16).padStart(64, '0')])));
      got = { a: slot0 & ((1n << 160n) - 1n), b: liq, tick: Number(BigInt.asIntN(24, slot0 >> 160n)) };
    } else if (['v3', 'pancake-v3', 'algebra'].includes(pool.family)) {
      const [price, tick] = coder.decode(['uint160', 'int24'], call(pool.id, views.encodeFunctionData(pool.family === 'algebra' ? 'globalState' : 'slot0'))) as unknown as bigint[];
      got = { a: price!, b: BigInt(call(pool.id, views.encodeFunctionData('liquidity'))), tick: Number(tick) };
    } else {
      const [a, b] = coder.decode(['uint256', 'uint256'], call(pool.id, views.encodeFunctionData('getReserves'))) as unknown as bigint[];
      got = { a: a!, b: b! };
    }
    assert.deepEqual(got, want.nets ? { a: want.a, b: want.b, tick: want.tick } : want, `pool ${pool.id} (${pool.family}) at block ${block}`);
    checked++;
  }
  // Every 7th balance the logs touched (all of them would take seconds of ABI encoding).
  let k = 0;
  for (const [key, want] of r.balances) {
    if (k++ % 7 !== block % 7) continue;
    const [token, holder] = key.split(':');
    assert.equal(BigInt(call(token!, views.encodeFunctionData('balanceOf', [holder]))), want, `balance ${key} at ${block}`);
    checked++;
  }
  for (const [token, want] of r.supplies) assert.equal(BigInt(call(token, views.encodeFunctionData('totalSupply'))), want, `supply of ${token}`);
  if (r.feed !== null) assert.equal((coder.decode(['uint80', 'int256'], call(w.addresses.feed, views.encodeFunctionData('latestRoundData'))) as unknown as bigint[])[1], r.feed);
  return checked;
}

const allLogs = (chain: SimChain) => createMethods(chain).methods.eth_getLogs!([{ fromBlock: '0x0', toBlock: 'latest' }]) as Log[];

test('logs replayed independently equal the calls at sampled blocks, before and after a reorg', () => {
  const chain = new SimChain({ profile: 'demo-size', seed: 7 });
  const head = chain.head;
  const samples = [chain.world.tradingFrom - 1, chain.world.tradingFrom + 700, head - 300, head - 10, head];
  let logs = parseAll(allLogs(chain));
  const families = new Set(chain.world.pools.map((p) => p.family));
  assert.equal(families.size, 9, 'every family has pools');
  let checked = 0;
  for (const block of samples) checked += checkAt(chain, logs, block);
  assert.ok(checked > 500, `${checked} values compared`);

  const before = chain.block(head - 5)!.hash;
  chain.reorg(40);
  assert.equal(chain.head, head);
  assert.notEqual(chain.block(head - 5)!.hash, before, 'the reorganised blocks are new');
  assert.equal(chain.block(head - 39)!.parentHash, chain.block(head - 40)!.hash);
  logs = parseAll(allLogs(chain));
  for (const block of [head - 41, head - 20, head]) checked += checkAt(chain, logs, block);
});

test('on the default seed swaps cross initialized ticks, and a mint outside the price range leaves the active liquidity', () => {
  const chain = new SimChain({ profile: 'demo-size', seed: 1 });
  const w = chain.world;
  const raw = allLogs(chain);
  const r = replay(parseAll(raw), chain.head, w.addresses.poolManager);
  // Liquidity of consecutive swaps of a pool differs without a position change between: a crossing.
  assert.ok(r.crossings >= 20, `${r.crossings} swaps of ${r.swaps} crossed a tick`);
  const trading = r.outsideMints.filter((m) => m.block >= w.tradingFrom);
  assert.ok(r.outsideMints.length >= 30 && trading.length >= 1, `${r.outsideMints.length} mints outside the tick, ${trading.length} while trading`);
  // Such a mint, alone of its pool's logs in its block: liquidity() and the tick are those of the block before.
  const { methods } = createMethods(chain);
  const call = (to: string, data: string, block: number) => methods.eth_call!([{ to, data }, '0x' + block.toString(16)]) as string;
  const stateAt = (key: string, block: number) => {
    const pool = w.pools.find((p) => p.id === key)!;
    if (pool.family === 'v4') {
      const read = (offset: bigint) => BigInt(call(w.addresses.poolManager, views.encodeFunctionData('extsload', ['0x' + (pool.v4Slot! + offset).toString(16).padStart(64, '0')]), block));
      return { liquidity: read(3n), slot0: read(0n) };
    }
    return { liquidity: BigInt(call(key, views.encodeFunctionData('liquidity'), block)), slot0: call(key, views.encodeFunctionData(pool.family === 'algebra' ? 'globalState' : 'slot0'), block) };
  };
  let alone = 0;
  for (const m of trading) {
    const own = raw.filter((l) => Number(l.blockNumber) === m.block && (l.address === m.pool || l.topics[1] === m.pool));
    if (own.length !== 1) continue;
    assert.deepEqual(stateAt(m.pool, m.block), stateAt(m.pool, m.block - 1), `pool ${m.pool}: a mint outside the tick at ${m.block}`);
    alone++;
  }
  assert.ok(alone >= 1, `${alone} mints outside the tick checked by calls`);
});

test('the same seed and profile give the same chain; another seed another', () => {
  const a = new SimChain({ profile: 'demo-size', seed: 3 });
  const b = new SimChain({ profile: 'demo-size', seed: 3 });
  const c = new SimChain({ profile: 'demo-size', seed: 4 });
  for (const n of [1, 500, a.world.tradingFrom + 5, a.head]) {
    assert.equal(a.block(n)!.hash, b.block(n)!.hash);
    assert.deepEqual(a.block(n)!.txs, b.block(n)!.txs);
    assert.notEqual(a.block(n)!.hash, c.block(n)!.hash);
  }
  assert.deepEqual(allLogs(a), allLogs(b));
  assert.deepEqual(a.swapLog, b.swapLog);
});

test('Uniswap V4 pools with native ETH: address(0) is currency0 in Initialize and in the id, and no WETH moves in their transactions', () => {
  const chain = new SimChain({ profile: 'demo-size', seed: 1 });
  const { methods } = createMethods(chain);
  const w = chain.world;
  const weth = w.tokens[0]!.address;
  const v4 = events.getEvent('Initialize(bytes32,address,address,uint24,int24,address,uint160,int24)')!;
  const swap = events.getEvent('Swap(bytes32,address,int128,int128,uint160,uint128,int24,uint24)')!;
  const transfer = events.getEvent('Transfer')!;
  const native = (methods.eth_getLogs!([{ fromBlock: '0x0', toBlock: 'latest', address: w.addresses.poolManager, topics: [v4.topicHash, null, '0x' + '0'.repeat(64)] }]) as Log[]).map((log) => {
    const e = events.decodeEventLog(v4, log.data, log.topics);
    const key = coder.encode(['address', 'address', 'uint24', 'int24', 'address'], [e.currency0, e.currency1, e.fee, e.tickSpacing, e.hooks]);
    assert.equal(keccak256(key), log.topics[1], 'the id is the hash of the key with address(0)');
    return log.topics[1]!;
  });
  assert.ok(native.length >= 1, `${native.length} native pools`);
  assert.deepEqual(native.sort(), w.pools.filter((p) => p.native0).map((p) => p.id).sort());
  let swaps = 0;
  for (const id of native) {
    for (const log of methods.eth_getLogs!([{ fromBlock: '0x0', toBlock: 'latest', address: w.addresses.poolManager, topics: [swap.topicHash, id] }]) as (Log & { transactionHash: string })[]) {
      const receipt = methods.eth_getTransactionReceipt!([log.transactionHash]) as { logs: Log[] };
      const moved = receipt.logs.filter((l) => l.topics[0] === transfer.topicHash).map((l) => l.address);
      assert.ok(!moved.includes(weth), `no WETH transfer in ${log.transactionHash}`);
      assert.equal(moved.length, 1, 'the other token moves');
      swaps++;
    }
  }
  assert.ok(swaps > 0, `${swaps} swaps of native pools`);
  const truth = computeTruth(chain).pools.filter((p) => p.native0);
  assert.deepEqual(truth.map((p) => p.address).sort(), native.sort());
  for (const p of truth) assert.equal(p.token0, weth, 'the truth prices native ETH as WETH');
});

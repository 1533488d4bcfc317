// eth_call, eth_getCode and eth_getStorageAt of the simulated contracts at a block: ERC-20 views
// and a simulated transfer, every family's pool views, the V4 PoolManager's extsload, the USD
// feed (proxy and aggregator) and Multicall3's aggregate3. A call reads the state after its block.
import { Interface } from 'ethers';
import { addressWord, boolWord, readAddress, readWord, sel, stringReturn, word } from './abi.ts';
import { balanceKey, FEED_KEY, poolKey, supplyKey, ZERO, type FeedRound, type PoolState } from './blockGen.ts';
import type { SimChain } from './chain.ts';
import type { ConcentratedState } from './math.ts';
import { isConcentrated, MULTICALL3, type Pool } from './world.ts';

/** A call that reverts: `data` is the revert data (Error(string) when a reason is given). */
export class Revert extends Error {
  constructor(readonly reason: string) {
    super(`execution reverted: ${reason}`);
  }
  get data(): string {
    return this.reason ? new Interface(['function Error(string)']).encodeFunctionData('Error', [this.reason]) : '0x';
  }
}

const S = {
  name: sel('name()'), symbol: sel('symbol()'), decimals: sel('decimals()'), totalSupply: sel('totalSupply()'),
  balanceOf: sel('balanceOf(address)'), transfer: sel('transfer(address,uint256)'), owner: sel('owner()'), getOwner: sel('getOwner()'),
  allowance: sel('allowance(address,address)'), approve: sel('approve(address,uint256)'), transferFrom: sel('transferFrom(address,address,uint256)'),
  mint: sel('mint(address,uint256)'), pause: sel('pause()'), unpause: sel('unpause()'), implementation: sel('implementation()'),
  token0: sel('token0()'), token1: sel('token1()'), getReserves: sel('getReserves()'), stable: sel('stable()'), fee: sel('fee()'), factory: sel('factory()'),
  slot0: sel('slot0()'), globalState: sel('globalState()'), liquidity: sel('liquidity()'), tickSpacing: sel('tickSpacing()'),
  extsload: sel('extsload(bytes32)'), latestRoundData: sel('latestRoundData()'), aggregator: sel('aggregator()'), description: sel('description()'),
  latestAnswer: sel('latestAnswer()'), aggregate3: sel('aggregate3((address,bool,bytes)[])'), getBlockNumber: sel('getBlockNumber()'),
  getCurrentBlockTimestamp: sel('getCurrentBlockTimestamp()'), upgradeTo: sel('upgradeTo(address)'),
} as const;

const multicall = new Interface([
  'function aggregate3((address target, bool allowFailure, bytes callData)[] calls) payable returns ((bool success, bytes returnData)[] returnData)',
]);

const ret = (...words: string[]) => '0x' + words.join('');

export function call(chain: SimChain, block: number, to: string, input: string, from: string = ZERO): string {
  const w = chain.world;
  const s = input.slice(0, 10).toLowerCase();
  to = to.toLowerCase();
  const token = w.tokenByAddress.get(to);
  if (token !== undefined) return tokenCall(chain, block, token, s, input, from.toLowerCase());
  const pool = w.poolByAddress.get(to);
  if (pool !== undefined) return poolCall(chain, block, w.pools[pool]!, s);
  if (to === MULTICALL3) return aggregate3(chain, block, input, s);
  if (to === w.addresses.poolManager && s === S.extsload) return extsload(chain, block, '0x' + input.slice(10, 74).toLowerCase());
  if (to === w.addresses.feed || to === w.addresses.aggregator) return feedCall(chain, block, to, s);
  // A call to an account without code (or a view a contract lacks) returns nothing, as the EVM does for an EOA.
  if (codeOf(chain, to) === '0x') return '0x';
  throw new Revert('');
}

function tokenCall(chain: SimChain, block: number, index: number, s: string, input: string, from: string): string {
  const w = chain.world;
  const t = w.tokens[index]!;
  if (block < t.mintBlock) throw new Revert(''); // not deployed yet: the EVM returns nothing, a decoder fails
  const balance = (holder: string) => chain.history.at<bigint>(balanceKey(w, index, holder), block) ?? 0n;
  switch (s) {
    case S.name:
      return stringReturn(t.name);
    case S.symbol:
      return stringReturn(t.symbol);
    case S.decimals:
      return ret(word(t.decimals));
    case S.totalSupply:
      return ret(word(chain.history.at<bigint>(supplyKey(index), block) ?? 0n));
    case S.balanceOf:
      return ret(word(balance(readAddress(input, 0))));
    case S.allowance:
      return ret(word(0n));
    case S.owner:
      if (t.owner === null) throw new Revert('');
      return ret(addressWord(t.owner));
    case S.transfer: {
      const to = readAddress(input, 0);
      const amount = readWord(input, 1);
      if (balance(from) < amount) throw new Revert('ERC20: transfer amount exceeds balance');
      if (t.kind === 'honeypot' && from !== w.addresses.treasury && isPoolHolder(chain, to)) throw new Revert('TRANSFER_FORBIDDEN');
      return ret(boolWord(true));
    }
    case S.implementation:
      if (!t.implementation) throw new Revert('');
      return ret(addressWord(t.implementation));
  }
  throw new Revert('');
}

function isPoolHolder(chain: SimChain, address: string) {
  return chain.world.poolByAddress.has(address) || address === chain.world.addresses.poolManager;
}

export function poolStateAt(chain: SimChain, pool: Pool, block: number): PoolState | undefined {
  return chain.history.at<PoolState>(poolKey(pool.index), block);
}

function poolCall(chain: SimChain, block: number, pool: Pool, s: string): string {
  const w = chain.world;
  const state = poolStateAt(chain, pool, block);
  if (!state) return '0x'; // no code yet
  switch (s) {
    case S.token0:
      return ret(addressWord(w.tokens[pool.token0]!.address));
    case S.token1:
      return ret(addressWord(w.tokens[pool.token1]!.address));
    case S.factory:
      return ret(addressWord(pool.factory));
  }
  if (!isConcentrated(pool.family)) {
    if (s === S.getReserves) {
      const words = [word(state.a), word(state.b)];
      if (pool.family === 'v2' || pool.family === 'etherex-legacy' || pool.family === 'solidly') words.push(word(chain.timestamp(block) % 2 ** 32));
      return ret(...words);
    }
    if (s === S.stable && (pool.family === 'solidly' || pool.family === 'etherex-legacy')) return ret(boolWord(pool.stable));
    throw new Revert('');
  }
  const tick = word((state as ConcentratedState).tick);
  if (s === S.liquidity) return ret(word(state.b));
  if (s === S.fee && pool.family !== 'algebra') return ret(word(pool.feePpm));
  if (s === S.tickSpacing) return ret(word(pool.tickSpacing));
  if (s === S.slot0 && (pool.family === 'v3' || pool.family === 'pancake-v3')) {
    // sqrtPriceX96, tick, observationIndex, observationCardinality, observationCardinalityNext, feeProtocol, unlocked
    return ret(word(state.a), tick, word(0n), word(1n), word(1n), word(0n), boolWord(true));
  }
  if (s === S.globalState && pool.family === 'algebra') {
    // price, tick, fee, timepointIndex, communityFeeToken0, communityFeeToken1, unlocked
    return ret(word(state.a), tick, word(pool.feePpm), word(0n), word(0n), word(0n), boolWord(true));
  }
  throw new Revert('');
}

/** StateLibrary's reads: slot 0 packs √P, tick, protocol fee and LP fee; slot 3 is the liquidity. */
function extsload(chain: SimChain, block: number, slot: string): string {
  const hit = chain.world.v4BySlot.get(slot);
  if (!hit) return ret(word(0n));
  const pool = chain.world.pools[hit.pool]!;
  const state = poolStateAt(chain, pool, block);
  if (!state) return ret(word(0n));
  if (hit.offset === 3) return ret(word(state.b));
  const tick = BigInt.asUintN(24, BigInt((state as ConcentratedState).tick));
  return ret(word(state.a | (tick << 160n) | (BigInt(pool.feePpm) << 208n)));
}

function feedCall(chain: SimChain, block: number, to: string, s: string): string {
  const w = chain.world;
  const round = chain.history.at<FeedRound>(FEED_KEY, block);
  switch (s) {
    case S.decimals:
      return ret(word(8n));
    case S.description:
      return stringReturn('ETH / USD');
    case S.aggregator:
      if (to === w.addresses.feed) return ret(addressWord(w.addresses.aggregator));
      break;
    case S.latestAnswer:
      return ret(word(round?.answer ?? 0n));
    case S.latestRoundData:
      if (!round) throw new Revert('No data present');
      return ret(word(round.round), word(round.answer), word(round.updatedAt), word(round.updatedAt), word(round.round));
  }
  throw new Revert('');
}

function aggregate3(chain: SimChain, block: number, input: string, s: string): string {
  if (s === S.getBlockNumber) return ret(word(block));
  if (s === S.getCurrentBlockTimestamp) return ret(word(chain.timestamp(block)));
  if (s !== S.aggregate3) throw new Revert('');
  const [calls] = multicall.decodeFunctionData('aggregate3', input) as unknown as [[string, boolean, string][]];
  const results = calls.map(([target, allowFailure, callData]) => {
    try {
      return [true, call(chain, block, target, callData, MULTICALL3)] as const;
    } catch (error) {
      if (!(error instanceof Revert) || !allowFailure) throw error instanceof Revert ? new Revert('Multicall3: call failed') : error;
      return [false, error.data] as const;
    }
  });
  return multicall.encodeFunctionResult('aggregate3', [results]);
}

// Runtime code: a dispatcher of PUSH4 selectors (what the contract checks read), per kind of contract.

const codeCache = new Map<string, string>();

function dispatcher(selectors: string[], fallback = '00'): string {
  // PUSH1 0x80 PUSH1 0x40 MSTORE, then per selector DUP1 PUSH4 <sel> EQ, then the fallback (STOP)
  return '0x6080604052' + selectors.map((s) => '80' + '63' + s.slice(2) + '14').join('') + fallback;
}

/**
 * An EIP-1967 proxy's fallback, as real proxies have one: the call data copied to memory, a
 * DELEGATECALL to the address in the implementation slot, its return data returned.
 */
function delegatingFallback(): string {
  return (
    '365f5f37' + // CALLDATACOPY(0, 0, CALLDATASIZE)
    '5f5f365f' + // retSize 0, retOffset 0, argsSize CALLDATASIZE, argsOffset 0
    '7f' + EIP1967_IMPLEMENTATION.slice(2) + '54' + // SLOAD(implementation slot)
    '5af4' + // GAS DELEGATECALL
    '3d5f5f3e' + // RETURNDATACOPY(0, 0, RETURNDATASIZE)
    '3d5ff3' // RETURN(0, RETURNDATASIZE)
  );
}

const ERC20 = [S.name, S.symbol, S.decimals, S.totalSupply, S.balanceOf, S.transfer, S.allowance, S.approve, S.transferFrom];

export function codeOf(chain: SimChain, address: string): string {
  address = address.toLowerCase();
  const hit = codeCache.get(address);
  if (hit !== undefined) return hit;
  const w = chain.world;
  let code = '0x';
  const token = w.tokenByAddress.get(address);
  if (token !== undefined) {
    const t = w.tokens[token]!;
    const selectors = [...ERC20];
    if (t.owner !== null) selectors.push(S.owner);
    if (t.kind === 'mintable') selectors.push(S.mint);
    if (t.kind === 'honeypot') selectors.push(S.pause, S.unpause);
    // A proxy's own code only delegates (DELEGATECALL); its implementation carries the token's functions.
    code = t.implementation ? dispatcher([S.implementation, S.upgradeTo], delegatingFallback()) : dispatcher(selectors);
  } else if ([...w.tokens].some((t) => t.implementation === address)) {
    code = dispatcher([...ERC20, S.owner, S.mint, S.pause, S.unpause]);
  } else if (w.poolByAddress.has(address)) code = dispatcher([S.token0, S.token1, S.getReserves, S.slot0, S.globalState, S.liquidity, S.stable]);
  else if (address === MULTICALL3) code = dispatcher([S.aggregate3, S.getBlockNumber, S.getCurrentBlockTimestamp]);
  else if (address === w.addresses.poolManager) code = dispatcher([S.extsload]);
  else if (address === w.addresses.feed || address === w.addresses.aggregator) code = dispatcher([S.decimals, S.latestRoundData, S.aggregator, S.description]);
  else if (Object.values(w.factories).includes(address)) code = dispatcher([S.owner]);
  codeCache.set(address, code);
  return code;
}

const EIP1967_IMPLEMENTATION = '0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc';
const EIP1967_ADMIN = '0xb53127684a568b3173ae13b9f8a6016e243e63b6e8ee1178d6a717850b5d6103';

export function storageAt(chain: SimChain, block: number, address: string, slot: string): string {
  address = address.toLowerCase();
  const normal = '0x' + BigInt(slot).toString(16).padStart(64, '0');
  const token = chain.world.tokenByAddress.get(address);
  if (token !== undefined) {
    const t = chain.world.tokens[token]!;
    if (t.implementation && normal === EIP1967_IMPLEMENTATION) return '0x' + addressWord(t.implementation);
    if (t.implementation && normal === EIP1967_ADMIN) return '0x' + addressWord(chain.world.addresses.proxyAdmin);
  }
  if (address === chain.world.addresses.poolManager) return extsload(chain, block, normal);
  return '0x' + word(0n);
}

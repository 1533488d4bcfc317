import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { Interface, JsonRpcProvider, Contract, AbiCoder, decodeBytes32String, ZeroAddress } from 'ethers';
import { loadContract, MULTICALL3_ADDRESS } from '../../src/chain/contracts.ts';
import { startDemoChain, type DemoChain } from '../../src/demo/chain.ts';
import { deployDemo, type DemoDeployment } from '../../src/demo/deploy.ts';
import { v4StateSlot } from '../../src/demo/poolState.ts';
import { v4PoolId } from '../../src/demo/seedV4Pools.ts';

let chain: DemoChain;
let d: DemoDeployment;
let rpc: JsonRpcProvider;
const abi = (name: Parameters<typeof loadContract>[0]) => loadContract(name).abi as never;

before(async () => {
  chain = await startDemoChain();
  d = await deployDemo(chain);
  rpc = new JsonRpcProvider(chain.url, chain.chainId, { staticNetwork: true });
});
after(async () => {
  rpc.destroy();
  await chain.stop();
});

test('tokens expose their metadata over JSON-RPC', async () => {
  assert.ok(d.tokens.length >= 15);
  const usdc = d.tokens.find((t) => t.symbol === 'USDC');
  assert.ok(usdc && d.stablecoins.includes(usdc.address));
  const c = new Contract(usdc.address, abi('DemoToken'), rpc);
  assert.equal(await c.getFunction('name')(), 'USD Coin');
  assert.equal(await c.getFunction('decimals')(), 6n);
  const decimals = new Set(d.tokens.map((t) => t.decimals));
  for (const x of [0, 6, 8, 9, 12, 18]) assert.ok(decimals.has(x), `decimals ${x}`);
  assert.ok(d.tokens.some((t) => BigInt(t.totalSupply) > 2n ** 64n));
  const spam = new Contract(d.spamToken, abi('DemoToken'), rpc);
  assert.equal(await spam.getFunction('name')(), 'Visit claim-rewards.xyz');
  const weth = new Contract(d.weth, abi('WETH9'), rpc);
  assert.equal(await weth.getFunction('symbol')(), 'WETH');
  assert.ok((await weth.getFunction('totalSupply')()) > 0n);
});

test('pools are registered in their factories and hold liquidity', async () => {
  assert.ok(d.pools.filter((p) => p.protocol === 'uniswap-v2').length >= 10);
  assert.ok(d.pools.filter((p) => p.protocol === 'uniswap-v3').length >= 2);
  for (const protocol of ['solidly', 'syncswap', 'pancake-v3', 'algebra']) assert.ok(d.pools.some((p) => p.protocol === protocol), protocol);
  const v4 = d.pools.filter((p) => p.protocol === 'uniswap-v4');
  assert.ok(v4.length >= 3 && v4.some((p) => p.v4?.native0) && v4.some((p) => p.v4?.key.hooks !== '0x0000000000000000000000000000000000000000'), 'V4: a native pool and a hooked one');
  for (const p of d.pools) {
    if (p.protocol === 'uniswap-v2') {
      const factory = new Contract(p.factory, abi('UniswapV2Factory'), rpc);
      assert.equal(await factory.getFunction('getPair')(p.token0, p.token1), p.address);
      const pair = new Contract(p.address, abi('UniswapV2Pair'), rpc);
      assert.equal(await pair.getFunction('token0')(), p.token0);
      const [r0, r1] = await pair.getFunction('getReserves')();
      assert.ok(r0 > 0n && r1 > 0n, p.symbol);
    } else if (p.protocol === 'solidly' || p.protocol === 'syncswap') {
      const factory = new Contract(p.factory, abi(p.protocol === 'solidly' ? 'DemoSolidlyFactory' : 'DemoSyncSwapFactory'), rpc);
      const registered = p.protocol === 'solidly'
        ? await factory.getFunction('getPair')(p.token0, p.token1, p.stable)
        : await factory.getFunction('getPool')(p.token0, p.token1);
      assert.equal(registered, p.address);
      const pool = new Contract(p.address, abi('DemoReservePool'), rpc);
      assert.equal(await pool.getFunction('stable')(), p.stable);
      const [r0, r1] = await pool.getFunction('getReserves')();
      assert.ok(r0 > 0n && r1 > 0n, p.symbol);
    } else if (p.protocol === 'pancake-v3' || p.protocol === 'algebra') {
      const factory = new Contract(p.factory, abi(p.protocol === 'algebra' ? 'DemoAlgebraFactory' : 'DemoPancakeV3Factory'), rpc);
      const registered = p.protocol === 'algebra'
        ? await factory.getFunction('poolByPair')(p.token0, p.token1)
        : await factory.getFunction('getPool')(p.token0, p.token1, p.fee);
      assert.equal(registered, p.address);
      const pool = new Contract(p.address, abi(p.protocol === 'algebra' ? 'DemoAlgebraPool' : 'DemoPancakeV3Pool'), rpc);
      const [sqrtPriceX96] = await pool.getFunction(p.protocol === 'algebra' ? 'globalState' : 'slot0')();
      assert.ok(sqrtPriceX96 > 0n && (await pool.getFunction('liquidity')()) > 0n, p.symbol);
    } else if (p.protocol === 'uniswap-v4') {
      // A V4 pool is an entry of the PoolManager: its id is keccak256(key), its state at StateLibrary's slots.
      assert.equal(p.address, v4PoolId(p.v4!.key));
      const manager = new Contract(p.factory, abi('DemoPoolManager'), rpc);
      const slot0 = BigInt(await manager.getFunction('extsload(bytes32)')(v4StateSlot(p.address)));
      const liquidity = BigInt(await manager.getFunction('extsload(bytes32)')(v4StateSlot(p.address, 3n)));
      assert.ok((slot0 & ((1n << 160n) - 1n)) > 0n && liquidity > 0n, p.symbol);
      if (p.v4!.native0) assert.equal(p.v4!.key.currency0, '0x0000000000000000000000000000000000000000');
      if (p.v4!.key.hooks !== '0x0000000000000000000000000000000000000000') assert.equal(BigInt(p.v4!.key.hooks) & 0x3fffn, (1n << 7n) | (1n << 3n), 'hook address grants beforeSwap and its return delta');
    } else {
      const factory = new Contract(p.factory, abi('DemoV3Factory'), rpc);
      assert.equal(await factory.getFunction('getPool')(p.token0, p.token1, p.fee), p.address);
      const pool = new Contract(p.address, abi('DemoV3Pool'), rpc);
      const [sqrtPriceX96, tick] = await pool.getFunction('slot0')();
      assert.ok(sqrtPriceX96 > 0n && (await pool.getFunction('liquidity')()) > 0n);
      // tick ~ log_1.0001(price); the simplified math is allowed to be off by about one tick.
      const price = (Number(sqrtPriceX96) / 2 ** 96) ** 2;
      assert.ok(Math.abs(Number(tick) - Math.log(price) / Math.log(1.0001)) < 2, `${p.symbol} tick ${tick}`);
    }
  }
  const usdcWeth = d.pools.find((p) => p.symbol === 'WETH/USDC' && p.protocol === 'uniswap-v2' && p.role === 'primary');
  assert.ok(usdcWeth);
  const [r0, r1] = await new Contract(usdcWeth.address, abi('UniswapV2Pair'), rpc).getFunction('getReserves')();
  const [weth, usdc] = usdcWeth.token0 === d.weth ? [r0, r1] : [r1, r0];
  assert.equal((usdc * 10n ** 12n) / weth, 3000n);
});

test('Multicall3 answers at the canonical address', async () => {
  assert.equal(d.multicall3, MULTICALL3_ADDRESS);
  const mc = new Contract(MULTICALL3_ADDRESS, abi('Multicall3'), rpc);
  assert.equal(await mc.getFunction('getChainId')(), 31337n);
  const erc20 = new Interface(abi('DemoToken'));
  const results = await mc.getFunction('aggregate3').staticCall([
    { target: d.weth, allowFailure: false, callData: erc20.encodeFunctionData('symbol') },
    { target: d.hostileTokens.revertingName, allowFailure: true, callData: erc20.encodeFunctionData('name') },
  ]);
  assert.equal(erc20.decodeFunctionResult('symbol', results[0].returnData)[0], 'WETH');
  assert.equal(results[1].success, false);
});

test('hostile tokens behave as designed', async () => {
  const erc20 = (a: string) => new Contract(a, abi('DemoToken'), rpc);
  await assert.rejects(erc20(d.hostileTokens.revertingName).getFunction('name')());
  assert.equal(await erc20(d.hostileTokens.revertingName).getFunction('symbol')(), 'NONAME');
  const raw = await rpc.call({ to: d.hostileTokens.bytes32Metadata, data: new Interface(abi('DemoToken')).encodeFunctionData('symbol') });
  assert.equal(raw.length, 66, 'bytes32, not an ABI string');
  assert.equal(decodeBytes32String(raw), 'MKRC');
  const name = await rpc.call({ to: d.hostileTokens.bytes32Metadata, data: new Interface(abi('DemoToken')).encodeFunctionData('name') });
  assert.equal(decodeBytes32String(name), 'Maker Classic');
  assert.equal(await erc20(d.hostileTokens.maxDecimals).getFunction('decimals')(), 255n);
  await assert.rejects(erc20(d.hostileTokens.noDecimals).getFunction('decimals')());
  assert.ok((await erc20(d.hostileTokens.noDecimals).getFunction('totalSupply')()) > 0n);
  assert.equal(AbiCoder.defaultAbiCoder().decode(['uint256'], await rpc.call({ to: d.hostileTokens.bytes32Metadata, data: '0x313ce567' }))[0], 18n);
});

test('network token: funded wallets, burns reduce totalSupply exactly', async () => {
  const n = d.networkToken;
  const signer = await rpc.getSigner(n.burners[0]);
  const token = new Contract(n.address, abi('NetworkToken'), signer);
  assert.equal(await token.getFunction('name')(), 'Demo Linea');
  assert.equal(await token.getFunction('treasury')(), n.treasury);
  assert.ok((await token.getFunction('balanceOf')(n.treasury)) > 0n);
  assert.ok((await token.getFunction('balanceOf')(n.ecosystem)) > 0n);
  const before = await token.getFunction('totalSupply')();
  assert.equal(await token.getFunction('l1TotalSupply')(), before);
  const amount = 123_456_789_000_000_000_123n;
  const receipt = await (await token.getFunction('burn')(amount)).wait();
  assert.equal(await token.getFunction('totalSupply')(), before - amount);
  const transfer = receipt.logs.map((l: { topics: string[]; data: string }) => token.interface.parseLog(l)).find((e: { name: string } | null) => e?.name === 'Transfer');
  assert.equal(transfer.args.to, ZeroAddress);
  assert.equal(transfer.args.value, amount);
});

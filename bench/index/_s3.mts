import { SimChain } from '../../sim/chain.ts';
import { createMethods } from '../../sim/rpc.ts';
import { TOPIC0 } from '../../sim/abi.ts';
const chain = new SimChain({ profile: 'demo-size', seed: 7, overrides: { tradingBlocks: 2000, swapsPerDay: 150_000 } });
const topics = [[TOPIC0.v2Swap, TOPIC0.v2Sync, TOPIC0.sync256, TOPIC0.v3Swap, TOPIC0.pancakeV3Swap, TOPIC0.v4Swap, TOPIC0.v3Mint, TOPIC0.v3Burn, TOPIC0.v4ModifyLiquidity, TOPIC0.answerUpdated]];
const f = { fromBlock: '0x' + chain.world.tradingFrom.toString(16), toBlock: '0x' + chain.head.toString(16), topics };
const m = createMethods(chain);
(globalThis as any).gc?.();
console.profile?.();
for (let i = 0; i < 5; i++) { chain.clearCache(); const c0 = process.cpuUsage(); m.getLogsJson(f); const c1 = process.cpuUsage(c0); console.log('cpu', (c1.user+c1.system)/1000); }

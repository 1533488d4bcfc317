import { createChainClient } from '../src/chain/index.ts';
import { createDatabase } from '../src/db/index.ts';
import { startDemo } from '../src/demo/index.ts';
import { indexerConfigFromDemo } from '../src/demo/indexerConfigFromDemo.ts';
import { demoTokenList } from '../src/demo/tokenList.ts';
import { createIndexer } from '../src/indexer/index.ts';
const t0 = Date.now();
const demo = await startDemo({});
console.log('demo', Date.now() - t0);
const db = await createDatabase({ pgliteDir: 'memory://' });
const chain = createChainClient({ url: demo.chain.url });
const indexer = createIndexer({ db, chain, config: indexerConfigFromDemo(demo.deployment), tokenList: demoTokenList(demo.deployment) });

while ((indexer.status().indexedBlock ?? -1) < demo.history.toBlock) { await (indexer as any).syncOnce(); }
console.log('indexed', Date.now() - t0);
const rows = await db.query(`SELECT symbol, current_price::text p, circulating_supply::text c, market_cap::text m, security_score s, is_secure, price_source_kind k FROM tokens ORDER BY symbol`);
for (const r of rows) console.log(JSON.stringify(r));
chain.destroy(); await db.close(); await demo.stop();

// npm run bench:checks -- [--profile demo-size] [--seed 1]
// What the contract checks cost a provider, by method: the simulated network indexed to its head
// in-process (PGlite) with the checks off, then every priced token checked through a second server
// over the same chain, so that every request it counts is a check's (each batch item counted, as a
// provider counts). Prints requests per checked token by method.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { createChainClient, createRequestBudget, type ChainClient } from '../src/chain/index.ts';
import { loadIndexerConfig } from '../src/config/indexerConfig.ts';
import { createIndexer } from '../src/indexer/index.ts';
import { SimChain } from '../sim/chain.ts';
import { presetOf } from '../sim/preset.ts';
import { startSimServer } from '../sim/server.ts';
import { openPglite } from '../test/helpers/pglite.ts';

export type ChecksCost = {
  priced: number;
  checked: number;
  /** Checked tokens that are proxies in the simulated world. */
  proxies: number;
  failures: number;
  requests: number;
  byMethod: Record<string, number>;
  perToken: number;
  perTokenByMethod: Record<string, number>;
  /** SHA-256 of every checked token's findings (sorted by token): equal digests, equal findings. */
  findingsSha256: string;
};

export async function measureChecksCost(chain: SimChain): Promise<ChecksCost> {
  const indexerServer = await startSimServer(chain);
  const checksServer = await startSimServer(chain);
  const clients: ChainClient[] = [];
  const client = (url: string) => {
    const c = createChainClient({ url, budget: createRequestBudget({ perSecond: 0, maxConcurrency: 8 }) });
    clients.push(c);
    return c;
  };
  const file = join(mkdtempSync(join(tmpdir(), 'checks-cost-')), 'preset.json');
  writeFileSync(file, JSON.stringify(presetOf(chain)));
  const config = loadIndexerConfig({ INDEXER_NETWORK_FILE: file });
  const db = await openPglite();
  try {
    const quiet = createIndexer({ db, chain: client(indexerServer.url), config: { ...config, contractCheckMaxCalls: 0 } });
    while (!(await quiet.syncOnce()).caughtUp || !quiet.status().historyComplete);
    await quiet.stop();
    const priced = (await db.query<{ n: number }>(`SELECT count(*)::int AS n FROM tokens WHERE current_price IS NOT NULL`))[0]!.n;
    const checking = createIndexer({ db, chain: client(indexerServer.url), checksChain: client(checksServer.url), config });
    for (let last = -1; checking.status().contractChecks !== last; ) {
      last = checking.status().contractChecks;
      await checking.syncOnce();
      await checking.settleContractChecks();
    }
    const status = checking.status();
    await checking.stop();
    const rows = await db.query<{ address: string; findings: unknown }>(`SELECT token AS address, findings FROM indexer_contract_checks ORDER BY token`);
    const findingsSha256 = createHash('sha256').update(JSON.stringify(rows)).digest('hex');
    const proxies = rows.filter((r) => chain.world.tokens[chain.world.tokenByAddress.get(r.address)!]?.implementation).length;
    const { byMethod, requests } = checksServer.stats();
    const checked = rows.length;
    const perTokenByMethod = Object.fromEntries(Object.entries(byMethod).sort((a, b) => b[1] - a[1]).map(([m, n]) => [m, Number((n / checked).toFixed(3))]));
    return { priced, checked, proxies, failures: status.contractCheckFailures, requests, byMethod, perToken: Number((requests / checked).toFixed(3)), perTokenByMethod, findingsSha256 };
  } finally {
    for (const c of clients) c.destroy();
    await db.close();
    await indexerServer.close();
    await checksServer.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { values } = parseArgs({ options: { profile: { type: 'string', default: 'demo-size' }, seed: { type: 'string', default: '1' } } });
  const chain = new SimChain({ profile: values.profile!, seed: Number(values.seed) });
  console.log(JSON.stringify({ profile: values.profile, seed: Number(values.seed), head: chain.head, ...(await measureChecksCost(chain)) }, null, 2));
}

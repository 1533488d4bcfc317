// The index bench's result as a Markdown table (bench/results/index-*.md).
import type { TruthCheck } from './checkTruth.ts';

export type IndexBenchResult = {
  profile: string; seed: number; rps: number; rttMs: number; label: string | null;
  head: number; reachedHead: boolean; indexedBlock: number; toHeadS: number; simStartupS: number;
  /** Head-first: seconds from the start until each window of history was complete, and the priced tokens' contract checks ran (null: not within the run). */
  phases?: Record<string, number | null>;
  blockTimestamp?: boolean;
  /** false: the run stopped at its window without waiting for the contract checks (--no-checks-wait). */
  checksWaited?: boolean;
  requests: number; throttled: number; logRangeRefusals: number; byMethod: Record<string, number>;
  databaseMb: number; swapsIndexed: number; swapsPerS: number; pools: number; tokens: number;
  processes: { name: string; peakRssMb: number; cpuS: number }[];
  simCpuShare: number;
  check: TruthCheck;
  at: string;
  /** The last lines the indexer logged (JSON file only). */
  indexerLogTail?: string[];
};

const f = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export function renderIndexBench(r: IndexBenchResult): string {
  const c = r.check;
  const lines = [
    `# Index bench: ${r.profile} at ${r.rps} requests/s${r.label ? ` (${r.label})` : ''}`,
    '',
    `Simulated network \`${r.profile}\` (seed ${r.seed}, head block ${r.head.toLocaleString('en-US')}) behind the provider profile`,
    `(${r.rps} requests/s with batch items counted, ${r.rttMs} ms round trip, eth_getLogs ≤ 2,000 blocks or ≤ 10,000 results,`,
    `logs ${r.blockTimestamp ? 'with' : 'without'} blockTimestamp); \`npm run index\` on PostgreSQL from an empty database. ${r.at}.`,
    '',
    '| Measure | Value |',
    '| --- | --- |',
    `| Time until the indexer is at the head (head-first: the current catalogue) | ${r.reachedHead ? `${f(r.toHeadS)} s (${f(r.toHeadS / 60)} min)` : `**not reached**: block ${r.indexedBlock.toLocaleString('en-US')} after ${f(r.toHeadS)} s`} |`,
    ...Object.entries(r.phases ?? {}).map(([name, at]) => `| ${name === 'checks' ? 'Contract checks of every priced token' : name === 'all' ? 'All history kept (retention) filled' : `History complete for the last ${name}`} | ${at === null ? (name === 'checks' && r.checksWaited === false ? 'not waited for (--no-checks-wait)' : 'not within the run') : `${f(at)} s (${f(at / 60)} min)`} |`),
    `| Simulator startup (build and serve) | ${f(r.simStartupS)} s |`,
    `| Requests (each batch item counted) | ${r.requests.toLocaleString('en-US')} (${r.throttled.toLocaleString('en-US')} refused with 429, ${r.logRangeRefusals} eth_getLogs refused for size) |`,
    `| Database size | ${f(r.databaseMb)} MB |`,
    `| Swaps indexed | ${r.swapsIndexed.toLocaleString('en-US')} (${f(r.swapsPerS)} swaps/s of indexing) |`,
    `| Pools, tokens | ${r.pools.toLocaleString('en-US')}, ${r.tokens.toLocaleString('en-US')} |`,
    ...r.processes.map((p) => `| ${p.name}: peak RSS, CPU | ${f(p.peakRssMb, 0)} MB, ${f(p.cpuS)} s |`),
    `| Simulator's CPU share of the run | ${f(r.simCpuShare * 100)} % of one core |`,
    `| Pools checked against the truth (head state exact, price 1e-9) | ${c.pools.checked}: ${c.pools.missing} missing, ${c.pools.stateMismatches} state and ${c.pools.priceMismatches} price mismatches |`,
    c.tokens.swapsCompared === false
      ? `| Tokens' 24 h swap counts checked | not compared: the 24 h window was not filled within the run (${c.tokens.checked} tokens: ${c.tokens.missing} missing) |`
      : `| Tokens' 24 h swap counts checked | ${c.tokens.checked}: ${c.tokens.missing} missing, ${c.tokens.swapMismatches} mismatches |`,
    `| USD prices checked (pool price × quote's USD price, feed) | ${c.usdPrices.checked}: ${c.usdPrices.mismatches} mismatches |`,
    `| All answers equal the truth | ${c.ok ? 'yes' : '**no**'} |`,
    '',
    '## Requests by method',
    '',
    '| Method | Requests |',
    '| --- | --- |',
    ...Object.entries(r.byMethod).sort((a, b) => b[1] - a[1]).map(([m, n]) => `| ${m} | ${n.toLocaleString('en-US')} |`),
  ];
  if (!r.reachedHead) {
    lines.push('', `The indexer did not reach the head within the run: the truth is the head's, the database is block ${r.indexedBlock.toLocaleString('en-US')}'s, so the comparison above is of different blocks and says nothing about correctness.`);
  }
  if (c.examples.length > 0) lines.push('', '## First differences', '', ...c.examples.map((e) => `- ${e}`));
  return lines.join('\n') + '\n';
}

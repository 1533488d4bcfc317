// The follow bench's result as a Markdown table (bench/results/follow-*.md).
import type { TruthCheck } from './checkTruth.ts';

export type LagSummary = { samples: number; mean: number; p50: number; p95: number; max: number; atMostTwo: number };

/** The forward steps logged while following ('indexed batch'): how many, blocks each, their parts' mean ms, the whole step's p50/p95. */
export type StepSummary = {
  count: number; blocksMean: number; partsMeanMs: Record<string, number>; totalMeanMs: number; totalP50Ms: number; totalP95Ms: number;
  /** The mean ms of the step's parts around its batch (the writer lock, the head, stored checks, the lag, a history range). */
  aroundMeanMs?: Record<string, number>;
};

export type FollowBenchResult = {
  profile: string; seed: number; rps: number; rttMs: number; blockMs: number; blockTimestamp: boolean; label: string | null;
  /** Seconds from the indexer's start until 7 days of history and every priced token's checks were done (null: not within the limit). */
  bootstrapS: number | null;
  followS: number; blocksMined: number; lag: LagSummary; steps?: StepSummary; retention?: string; checksWaited?: boolean;
  /** Requests the indexer sent while following (each batch item counted), by method. */
  requests: number; throttled: number; byMethod: Record<string, number>;
  pausedHead: number; check: TruthCheck; indexerPeakRssMb: number; at: string;
  /** Each lag sample as [ms since following began, blocks behind], and each forward step as [ms, blocks, step ms] (what a spike was). */
  lagSeries?: [number, number][]; stepSeries?: [number, number, number][];
  /** Steps over 2 s while following: their parts' times and edge headers (ms since following began). */
  slowSteps?: (Omit<LoggedStep, 'time'> & { at: number })[];
  /** The indexer's log lines while following other than the steps' own (warnings, check rounds). */
  followLog?: string[];
  /** A USD feed round every this many blocks mined while following, and each step that held one. */
  feedEvery?: number;
  feedRoundSteps?: FeedRoundStep[];
};

/** A step that held a feed round: when (ms since following began), its blocks, its time, and the largest lag sampled while it ran or within 2 s after. */
export type FeedRoundStep = {
  at: number; fromBlock: number; blocks: number; totalMs: number; lagMax: number | null; ms: Record<string, number>;
  /** The candles the batch left to roll up after its commit (the step's `candles` part), ms. */
  candlesAfterMs?: number;
};

/** The logged steps whose blocks hold a multiple of `every` (a feed round), with the lag around each. */
export function feedRoundSteps(steps: readonly LoggedStep[], every: number, lagSeries: readonly [number, number][], followStartedAt: number): FeedRoundStep[] {
  return steps
    .filter((s) => Math.floor((s.fromBlock + s.blocks - 1) / every) * every >= s.fromBlock)
    .map((s) => {
      const totalMs = Object.values(s.ms).reduce((a, b) => a + b, 0);
      // The line is logged at the step's end: after the batch, the parts around it too (the candles left pending, a history range).
      const aroundMs = Object.values(s.aroundMs ?? {}).reduce((a, b) => a + b, 0);
      const at = s.time - followStartedAt;
      const around = lagSeries.filter(([t]) => t >= at - totalMs - aroundMs && t <= at + 2000).map(([, lag]) => lag);
      return { at, fromBlock: s.fromBlock, blocks: s.blocks, totalMs: Math.round(totalMs), lagMax: around.length > 0 ? Math.max(...around) : null,
        ms: Object.fromEntries(Object.entries(s.ms).map(([k, v]) => [k, Math.round(v)])),
        ...(s.aroundMs?.candles ? { candlesAfterMs: Math.round(s.aroundMs.candles) } : {}) };
    });
}

/** Lag samples (blocks behind the head, one a second): mean, nearest-rank percentiles, the share of samples at most 2 blocks behind. */
export function summarizeLag(samples: readonly number[]): LagSummary {
  if (samples.length === 0) return { samples: 0, mean: NaN, p50: NaN, p95: NaN, max: NaN, atMostTwo: NaN };
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = (p: number) => sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
  return {
    samples: sorted.length,
    mean: sorted.reduce((s, x) => s + x, 0) / sorted.length,
    p50: rank(0.5),
    p95: rank(0.95),
    max: sorted[sorted.length - 1]!,
    atMostTwo: sorted.filter((x) => x <= 2).length / sorted.length,
  };
}

/** The forward steps ('indexed batch' JSON lines) of `output` logged between `from` and `to` (epoch ms). */
export type LoggedStep = { time: number; fromBlock: number; blocks: number; edgeHeaders: number; tokensWritten: number | null; ms: Record<string, number>; aroundMs?: Record<string, number> };

export function stepsLogged(output: string, from: number, to: number): LoggedStep[] {
  const steps: LoggedStep[] = [];
  for (const line of output.split('\n')) {
    if (!line.includes('"msg":"indexed batch"')) continue;
    const entry = JSON.parse(line) as { time: number; fromBlock: number; toBlock: number; edgeHeaders?: number; tokensWritten?: number; ms?: Record<string, number>; aroundMs?: Record<string, number> };
    if (entry.time >= from && entry.time <= to && entry.ms) {
      steps.push({
        time: entry.time, fromBlock: entry.fromBlock, blocks: entry.toBlock - entry.fromBlock + 1, edgeHeaders: entry.edgeHeaders ?? 0, tokensWritten: entry.tokensWritten ?? null, ms: entry.ms,
        ...(entry.aroundMs ? { aroundMs: entry.aroundMs } : {}),
      });
    }
  }
  return steps;
}

/** The 'indexed batch' JSON lines of `output` logged between `from` and `to` (epoch ms). */
export function summarizeSteps(output: string, from: number, to: number): StepSummary {
  const steps = stepsLogged(output, from, to);
  const totals = steps.map((s) => Object.values(s.ms).reduce((a, b) => a + b, 0)).sort((a, b) => a - b);
  const rank = (p: number) => (totals.length === 0 ? NaN : totals[Math.min(totals.length - 1, Math.ceil(p * totals.length) - 1)]!);
  const partsMeanMs: Record<string, number> = {};
  for (const s of steps) for (const [part, ms] of Object.entries(s.ms)) partsMeanMs[part] = (partsMeanMs[part] ?? 0) + ms / steps.length;
  const aroundMeanMs: Record<string, number> = {};
  for (const s of steps) for (const [part, ms] of Object.entries(s.aroundMs ?? {})) aroundMeanMs[part] = (aroundMeanMs[part] ?? 0) + ms / steps.length;
  return {
    count: steps.length, blocksMean: steps.reduce((a, s) => a + s.blocks, 0) / steps.length, partsMeanMs,
    ...(Object.keys(aroundMeanMs).length > 0 ? { aroundMeanMs } : {}),
    totalMeanMs: totals.reduce((a, b) => a + b, 0) / totals.length, totalP50Ms: rank(0.5), totalP95Ms: rank(0.95),
  };
}

const f = (n: number, d = 1) => n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

export function renderFollowBench(r: FollowBenchResult): string {
  const c = r.check;
  const lines = [
    `# Follow bench: ${r.profile} at ${r.rps} requests/s${r.label ? ` (${r.label})` : ''}`,
    '',
    `Simulated network \`${r.profile}\` (seed ${r.seed}) mining a block of trading every ${r.blockMs} ms behind the provider profile`,
    `(${r.rps} requests/s with batch items counted, ${r.rttMs} ms round trip, logs ${r.blockTimestamp ? 'with' : 'without'} blockTimestamp);`,
    `\`npm run index\` on PostgreSQL from an empty database, following measured after its bootstrap. ${r.at}.`,
    '',
    '| Measure | Value |',
    '| --- | --- |',
    `| Bootstrap (${r.retention ?? '7d'} of history${r.checksWaited === false ? '; contract checks not waited for' : ', every priced token checked'}) | ${r.bootstrapS === null ? 'not within the limit' : `${f(r.bootstrapS)} s (${f(r.bootstrapS / 60)} min)`} |`,
    `| Following measured for | ${f(r.followS)} s, ${r.blocksMined} blocks mined |`,
    `| Lag behind the head (blocks; one sample a second) | mean ${f(r.lag.mean, 2)}, median ${r.lag.p50}, p95 ${r.lag.p95}, max ${r.lag.max} |`,
    `| Samples at most 2 blocks behind | ${f(r.lag.atMostTwo * 100)} % of ${r.lag.samples} |`,
    ...(r.steps ? [`| Forward steps while following | ${r.steps.count}, ${f(r.steps.blocksMean, 2)} blocks each; ${f(r.steps.totalMeanMs, 0)} ms mean, ${f(r.steps.totalP50Ms, 0)} median, ${f(r.steps.totalP95Ms, 0)} p95 (reads, replay and write; not the wait between steps) |`] : []),
    `| Requests while following | ${r.requests.toLocaleString('en-US')} (${f(r.requests / r.followS, 2)} requests/s; ${r.throttled} refused with 429) |`,
    `| Indexer peak RSS (whole run) | ${f(r.indexerPeakRssMb, 0)} MB |`,
    `| At the paused head ${r.pausedHead.toLocaleString('en-US')}: pools against the truth | ${c.pools.checked}: ${c.pools.missing} missing, ${c.pools.stateMismatches} state and ${c.pools.priceMismatches} price mismatches |`,
    `| Tokens' 24 h swap counts | ${c.tokens.checked}: ${c.tokens.missing} missing, ${c.tokens.swapMismatches} mismatches |`,
    `| USD prices | ${c.usdPrices.checked}: ${c.usdPrices.mismatches} mismatches |`,
    `| All answers equal the truth | **${c.ok ? 'yes' : 'no'}** |`,
    '',
    '## Requests by method while following',
    '',
    '| Method | Requests | Per second |',
    '| --- | --- | --- |',
    ...Object.entries(r.byMethod).sort((a, b) => b[1] - a[1]).map(([m, n]) => `| ${m} | ${n.toLocaleString('en-US')} | ${f(n / r.followS, 2)} |`),
  ];
  if (r.steps && r.steps.count > 0) {
    lines.push('', '## A forward step\'s parts while following (mean ms)', '', '| Part | ms |', '| --- | --- |');
    for (const [part, ms] of Object.entries(r.steps.partsMeanMs)) lines.push(`| ${part} | ${f(ms, 0)} |`);
    if (r.steps.aroundMeanMs) {
      lines.push('', '## Around the batch: the step\'s other parts (mean ms; the pacer\'s wait not included)', '', '| Part | ms |', '| --- | --- |');
      for (const [part, ms] of Object.entries(r.steps.aroundMeanMs)) lines.push(`| ${part} | ${f(ms, 0)} |`);
    }
  }
  if (r.feedEvery !== undefined) {
    const rounds = r.feedRoundSteps ?? [];
    lines.push('', `## Steps that held a USD feed round (one every ${r.feedEvery} blocks mined)`, '');
    if (rounds.length === 0) lines.push('None while following.');
    else {
      lines.push('| At (s) | Blocks | Step ms (to the commit) | Candles after it, ms | Largest lag around it | Slowest parts (ms) |', '| ---: | --- | ---: | ---: | ---: | --- |');
      for (const s of rounds) {
        const parts = Object.entries(s.ms).sort((a, b) => b[1] - a[1]).slice(0, 5).map(([k, v]) => `${k} ${v}`).join(', ');
        lines.push(`| ${f(s.at / 1000, 0)} | ${s.fromBlock.toLocaleString('en-US')}+${s.blocks} | ${s.totalMs} | ${s.candlesAfterMs ?? '-'} | ${s.lagMax ?? '-'} | ${parts} |`);
      }
    }
  }
  if (c.examples.length > 0) lines.push('', '## First differences', '', ...c.examples.map((e) => `- ${e}`));
  return lines.join('\n') + '\n';
}

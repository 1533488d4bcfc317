// The embedded demo as `npm start` runs it, from its snapshot (snapshot.ts): the chain loaded or
// built, the database part to start the index from (or to save once indexed), then caught up to
// the wall clock and trading live. The caller (main.ts) owns the database and the indexer, so it
// drives the steps in this order:
//   openDemo → database(inputs) → [index up to snapshotHead; saveDatabase] → catchUp → startLive
import type { AnvilChain } from './anvil.ts';
import { catchUpToNow, type CatchUpReport } from './catchUp.ts';
import type { DemoDeployment } from './deploy.ts';
import { startLiveTrading, type LiveTrading } from './live.ts';
import type { SimulationReport } from './simulate.ts';
import { openDatabaseSnapshot, openSnapshotChain, type DatabaseSnapshot, type DemoSnapshotOptions, type SnapshotChain } from './snapshot.ts';

export interface OpenedDemo {
  chain: AnvilChain;
  deployment: DemoDeployment;
  history: SimulationReport;
  snapshot: SnapshotChain;
  /** The block the database part is indexed up to: index this far before saveDatabase/catchUp. */
  snapshotHead: number;
  timings: SnapshotChain['timings'] & { catchUpMs?: number };
  database(indexerInputs: unknown): DatabaseSnapshot;
  catchUp(): Promise<CatchUpReport>;
  startLive(options?: { intervalMs?: number; onError?: (err: unknown) => void }): Promise<LiveTrading>;
  stop(): Promise<void>;
}

export async function openDemo(options: DemoSnapshotOptions & { seed: number }): Promise<OpenedDemo> {
  const snapshot = await openSnapshotChain(options);
  let live: LiveTrading | undefined;
  const timings: OpenedDemo['timings'] = { ...snapshot.timings };
  return {
    chain: snapshot.chain,
    deployment: snapshot.deployment,
    history: snapshot.history,
    snapshot,
    snapshotHead: snapshot.head.number,
    timings,
    database: (inputs) => openDatabaseSnapshot(snapshot, inputs, { dir: options.dir, log: options.log }),
    async catchUp() {
      const report = await catchUpToNow(snapshot.chain, snapshot.deployment, { seed: options.seed, depeg: snapshot.history.depeg, now: options.now });
      timings.catchUpMs = report.durationMs;
      return report;
    },
    async startLive(liveOptions = {}) {
      live = await startLiveTrading(snapshot.chain, snapshot.deployment, { seed: options.seed, depeg: snapshot.history.depeg, ...liveOptions });
      return live;
    },
    async stop() {
      await live?.stop();
      await snapshot.chain.stop();
    },
  };
}

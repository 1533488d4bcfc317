// Start-up phases of an API process on a PGlite catalogue, in one process: open, token catalogue,
// price histories; time and memory after each (run with --expose-gc to see what stays live).
//   node --expose-gc --import tsx bench/loadPhases.ts /tmp/cat100k
import { createDatabase } from '../src/db/index.ts';
import { createTokenCatalog } from '../src/readModel/tokens/createTokenCatalog.ts';
import { createPriceHistoryStore } from '../src/readModel/prices/createPriceHistoryStore.ts';

const dir = process.argv[2];
if (!dir) throw new Error('usage: bench/loadPhases.ts <pglite dir>');
const gc = (globalThis as { gc?: () => void }).gc;
const mb = (n: number) => Math.round(n / 1e5) / 10;
let last = performance.now();
function phase(name: string): void {
  const before = process.memoryUsage();
  gc?.();
  const m = process.memoryUsage();
  const now = performance.now();
  console.log(JSON.stringify({ phase: name, ms: Math.round(now - last), rssMb: mb(before.rss), heapUsedBeforeGcMb: mb(before.heapUsed), heapUsedMb: mb(m.heapUsed), heapTotalMb: mb(m.heapTotal), externalMb: mb(m.external), arrayBuffersMb: mb(m.arrayBuffers) }));
  last = performance.now();
}
phase('start');
const db = await createDatabase({ pgliteDir: dir });
phase('open');
const catalog = createTokenCatalog({ db, staleMs: 1000 });
await catalog.refresh(true);
phase('tokens');
const prices = createPriceHistoryStore({ db, staleMs: 1000 });
await prices.refresh(true);
phase('prices');
catalog.stop();
prices.stop();
await db.close();

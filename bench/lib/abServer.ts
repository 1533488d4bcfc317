// bench/cpuAB.ts's server: the request handler of each checkout given, in this one process, on
// one PGlite, each on its own port (printed as `PORTS a b …`). Each checkout's own catalogue and
// price store (checking the data version hourly: nothing changes during a run).
//   node --import tsx bench/lib/abServer.ts PGLITE_DIR CHECKOUT...
import { createServer } from 'node:http';
import pino from 'pino';

const [pgliteDir, ...roots] = process.argv.slice(2);
const { createDatabase } = await import(`${roots[0]}/src/db/index.ts`);
const db = await createDatabase({ pgliteDir });
const logger = pino({ level: 'silent' });
const ports: number[] = [];
for (const root of roots) {
  const { createHttpHandler } = await import(`${root}/src/api/createHttpHandler.ts`);
  const { createTokenCatalog } = await import(`${root}/src/readModel/tokens/createTokenCatalog.ts`);
  const { createPriceHistoryStore } = await import(`${root}/src/readModel/prices/createPriceHistoryStore.ts`);
  const catalog = createTokenCatalog({ db, staleMs: 3_600_000 });
  const prices = createPriceHistoryStore({ db, staleMs: 3_600_000 });
  await catalog.refresh(true);
  await prices.refresh(true);
  const server = createServer({ keepAlive: true }, createHttpHandler({ db, logger, catalog, prices }).handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ports.push((server.address() as { port: number }).port);
}
process.stdout.write(`PORTS ${ports.join(' ')}\n`);

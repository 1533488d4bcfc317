// Writes the bench's seeded catalogue into a PGlite directory and exits, for measuring a service
// (memory, start-up) on it by hand: npx tsx bench/seedCatalogue.ts --tokens 100000 --dir /tmp/cat100k
import { buildCatalogue, writeCatalogue } from './lib/catalogue.ts';
import { createDatabase } from '../src/db/index.ts';

const arg = (name: string, fallback: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1]! : fallback;
};
const count = Number(arg('tokens', '24000'));
const seed = Number(arg('seed', '59144'));
const dir = arg('dir', '');
if (!dir || !Number.isInteger(count) || count <= 0) {
  console.error('usage: npx tsx bench/seedCatalogue.ts --tokens N --dir DIR [--seed S]');
  process.exit(2);
}
const options = { count, seed, now: new Date() };
const db = await createDatabase({ pgliteDir: dir });
try {
  const report = await writeCatalogue(db, buildCatalogue(options), options);
  console.log(JSON.stringify(report));
} finally {
  await db.close();
}

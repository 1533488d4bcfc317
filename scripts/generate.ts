// Rebuilds generated/ from its sources by running every step in scripts/generate/ in name order.
// Each step is a module whose default export is an async function; steps own disjoint folders of generated/.
import { readdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const stepsDir = join(dirname(fileURLToPath(import.meta.url)), 'generate');
const steps = readdirSync(stepsDir).filter((f) => f.endsWith('.ts')).sort();

for (const file of steps) {
  const started = Date.now();
  const mod = (await import(pathToFileURL(join(stepsDir, file)).href)) as { default: () => Promise<void> };
  await mod.default();
  console.log(`generate: ${file} done in ${Date.now() - started} ms`);
}

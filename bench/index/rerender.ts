// Writes bench/results/<name>.md again from its .json (after a change of the table's layout).
// Usage: tsx bench/index/rerender.ts bench/results/index-linea-day-500rps-500rps-5ms.json
import { readFileSync, writeFileSync } from 'node:fs';
import { renderIndexBench, type IndexBenchResult } from './render.ts';

for (const file of process.argv.slice(2)) {
  const result = JSON.parse(readFileSync(file, 'utf8')) as IndexBenchResult;
  writeFileSync(file.replace(/\.json$/, '.md'), renderIndexBench(result));
}

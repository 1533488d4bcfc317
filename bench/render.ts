// Renders a results file again with the current report code (targets and Markdown), without
// measuring anything: for a change to the report itself.
//   tsx bench/render.ts [bench/results/latest.json]   → rewrites it and latest.md beside it
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { computeTargets, renderMarkdown, type BenchResults } from './lib/report.ts';
import { repoRoot } from './lib/processes.ts';

const file = resolve(process.argv[2] ?? join(repoRoot, 'bench', 'results', 'latest.json'));
const { targets: _old, ...measured } = JSON.parse(readFileSync(file, 'utf8')) as BenchResults;
const results: BenchResults = { ...measured, targets: computeTargets(measured) };
writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
writeFileSync(join(dirname(file), 'latest.md'), renderMarkdown(results));
process.stderr.write(`rendered ${file} and latest.md\n`);

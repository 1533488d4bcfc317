// npm run docs: builds the static documentation site into docs-dist/ (or the directory given).
// Usage: tsx scripts/build-docs.ts [outDir]
import { resolve } from 'node:path';
import { buildDocs } from '../src/docs/buildDocs.ts';
import { defaultDocsDir, defaultSpecDir } from '../src/docs/docsPaths.ts';

const started = performance.now();
const outDir = process.argv[2] ? resolve(process.argv[2]) : defaultDocsDir;
const result = await buildDocs({ specDir: defaultSpecDir, outDir });
console.log(`docs built into ${result.outDir} in ${Math.round(performance.now() - started)} ms: ${result.files.join(', ')}`);

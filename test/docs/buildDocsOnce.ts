// The docs site the tests read: the one scripts/run-tests.mjs built once for the run (TEST_DOCS_DIR),
// or, for a file run on its own, one build per test process into a temp directory. Tests never
// depend on (or touch) docs-dist/, nor write into the run's site.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocs, type BuildDocsResult } from '../../src/docs/buildDocs.ts';
import { defaultSpecDir } from '../../src/docs/docsPaths.ts';

let built: Promise<BuildDocsResult & { root: string | undefined }> | undefined;

export function buildDocsOnce(): Promise<BuildDocsResult & { root: string | undefined }> {
  return (built ??= (async () => {
    const shared = process.env.TEST_DOCS_DIR;
    if (shared) {
      const info = JSON.parse(await readFile(join(shared, 'build-info.json'), 'utf8')) as { specHash: string };
      return { outDir: shared, specHash: info.specHash, files: (await readdir(shared)).sort(), root: undefined };
    }
    const root = await mkdtemp(join(tmpdir(), 'docs-test-'));
    const result = await buildDocs({ specDir: defaultSpecDir, outDir: join(root, 'site') });
    return { ...result, root };
  })());
}

export async function removeBuiltDocs(): Promise<void> {
  const root = built && (await built).root;
  if (root) await rm(root, { recursive: true, force: true });
}

// One build per test process into a temp directory, so tests never depend on (or touch) docs-dist/.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocs, type BuildDocsResult } from '../../src/docs/buildDocs.ts';
import { defaultSpecDir } from '../../src/docs/docsPaths.ts';

let built: Promise<BuildDocsResult & { root: string }> | undefined;

export function buildDocsOnce(): Promise<BuildDocsResult & { root: string }> {
  return (built ??= (async () => {
    const root = await mkdtemp(join(tmpdir(), 'docs-test-'));
    const result = await buildDocs({ specDir: defaultSpecDir, outDir: join(root, 'site') });
    return { ...result, root };
  })());
}

export async function removeBuiltDocs(): Promise<void> {
  if (built) await rm((await built).root, { recursive: true, force: true });
}

import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildDocs } from './buildDocs.ts';
import { buildInfoFile } from './docsPaths.ts';
import { specHash } from './specHash.ts';

/**
 * The directory to serve the site from: the prebuilt `docsDir` when it was built from the
 * current specs, else a cache directory keyed by the specs' hash, built there when missing
 * (so a fresh clone serves /docs without `npm run docs`, and a stale docs-dist is never served).
 */
export async function resolveDocsDir(options: { docsDir: string; specDir: string; cacheDir?: string }): Promise<string> {
  const hash = specHash(
    await readFile(join(options.specDir, 'openapi.yaml'), 'utf8'),
    await readFile(join(options.specDir, 'openrpc.json'), 'utf8'),
  );
  if ((await builtFrom(options.docsDir)) === hash) return options.docsDir;
  const cached = join(options.cacheDir ?? join(tmpdir(), 'token-api-docs'), hash);
  if ((await builtFrom(cached)) === hash) return cached;
  try {
    await buildDocs({ specDir: options.specDir, outDir: cached });
  } catch (error) {
    // Another process may have built the same cache entry at the same moment: use its build.
    if ((await builtFrom(cached)) !== hash) throw error;
  }
  return cached;
}

async function builtFrom(dir: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(join(dir, buildInfoFile), 'utf8')) as { specHash?: string }).specHash;
  } catch {
    return undefined;
  }
}

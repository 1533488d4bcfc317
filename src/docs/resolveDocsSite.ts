import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { renderDocs, writeDocs } from './buildDocs.ts';
import { buildInfoFile } from './docsPaths.ts';
import { docsSiteFromPages, loadDocsSite, type DocsFile } from './loadDocsSite.ts';
import { specHash } from './specHash.ts';

export type ResolveDocsOptions = {
  docsDir: string;
  specDir: string;
  cacheDir?: string;
  /** Told when a fresh build could not be kept in the cache directory (it is served all the same). */
  onCacheWriteError?: (error: unknown) => void;
};

/**
 * The site to serve, in memory: the prebuilt `docsDir` when it was built from the current specs,
 * else a cache directory keyed by the specs' hash, else rendered from the specs here (so a fresh
 * clone serves /docs without `npm run docs`, and a stale docs-dist is never served). A fresh
 * rendering is kept in the cache directory when it is writable, for the next process; when it is
 * not, the site is served from memory all the same.
 */
export async function resolveDocsSite(options: ResolveDocsOptions): Promise<Map<string, DocsFile>> {
  const hash = specHash(
    await readFile(join(options.specDir, 'openapi.yaml'), 'utf8'),
    await readFile(join(options.specDir, 'openrpc.json'), 'utf8'),
  );
  if ((await builtFrom(options.docsDir)) === hash) return loadDocsSite(options.docsDir);
  const cached = join(options.cacheDir ?? join(tmpdir(), 'token-api-docs'), hash);
  if ((await builtFrom(cached)) === hash) {
    // Another process may be replacing the same entry at this moment: render instead of failing.
    const site = await loadDocsSite(cached).catch(() => undefined);
    if (site) return site;
  }
  const rendered = await renderDocs(options.specDir);
  await writeDocs(rendered, cached).catch((error: unknown) => options.onCacheWriteError?.(error));
  return docsSiteFromPages(rendered.pages);
}

async function builtFrom(dir: string): Promise<string | undefined> {
  try {
    return (JSON.parse(await readFile(join(dir, buildInfoFile), 'utf8')) as { specHash?: string }).specHash;
  } catch {
    return undefined;
  }
}

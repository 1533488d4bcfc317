import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { parse } from 'yaml';
import { buildRestPage } from './buildRestPage.ts';
import { buildInfoFile } from './docsPaths.ts';
import type { OpenRpcDocument } from './openrpcTypes.ts';
import { renderLandingPage } from './renderLandingPage.ts';
import { renderRpcPage } from './renderRpcPage.ts';
import { specHash } from './specHash.ts';

export type BuildDocsResult = { outDir: string; specHash: string; files: string[] };

export type RenderedDocs = { specHash: string; pages: Record<string, string> };

/**
 * Renders the static site from spec/ in memory: index.html, rest.html, rpc.html, the three
 * documents and the build-info file. The output depends only on the specs and the tool versions
 * (no dates), hence reproducible.
 */
export async function renderDocs(specDir: string): Promise<RenderedDocs> {
  const yamlText = await readFile(join(specDir, 'openapi.yaml'), 'utf8');
  const rpcText = await readFile(join(specDir, 'openrpc.json'), 'utf8');
  const openapi = parse(yamlText) as Parameters<typeof renderLandingPage>[0]['openapi'];
  const openrpc = JSON.parse(rpcText) as OpenRpcDocument;
  const hash = specHash(yamlText, rpcText);

  const pages: Record<string, string> = {
    'index.html': renderLandingPage({ openapi, openrpc }),
    'rest.html': await buildRestPage(openapi, `${openapi.info.title} — REST reference`),
    'rpc.html': renderRpcPage(openrpc),
    'openapi.yaml': yamlText,
    'openapi.json': `${JSON.stringify(openapi, null, 2)}\n`,
    'openrpc.json': rpcText,
    [buildInfoFile]: `${JSON.stringify({ specHash: hash }, null, 2)}\n`,
  };
  return { specHash: hash, pages };
}

/** Builds the site into `outDir`: rendered, then written into a sibling temp directory and renamed into place. */
export async function buildDocs(options: { specDir: string; outDir: string }): Promise<BuildDocsResult> {
  const rendered = await renderDocs(options.specDir);
  await writeDocs(rendered, options.outDir);
  return { outDir: options.outDir, specHash: rendered.specHash, files: Object.keys(rendered.pages) };
}

/** Writes a rendered site so that a reader never sees half a build. */
export async function writeDocs({ pages }: RenderedDocs, outDir: string): Promise<void> {
  await mkdir(dirname(outDir), { recursive: true });
  const staging = `${outDir}.tmp-${process.pid}-${Date.now()}`;
  await mkdir(staging, { recursive: true });
  try {
    for (const [name, content] of Object.entries(pages)) await writeFile(join(staging, name), content);
    await rm(outDir, { recursive: true, force: true });
    await rename(staging, outDir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

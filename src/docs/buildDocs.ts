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

/**
 * Builds the static site from spec/: index.html, rest.html, rpc.html and the three documents.
 * Written into a sibling temp directory and renamed into place, so a reader never sees half a build.
 * The output depends only on the specs and the tool versions (no dates), hence reproducible.
 */
export async function buildDocs(options: { specDir: string; outDir: string }): Promise<BuildDocsResult> {
  const { specDir, outDir } = options;
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
  return { outDir, specHash: hash, files: Object.keys(pages) };
}

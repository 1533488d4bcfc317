// Bundles the explorer page (src/explorer/page/) for the browser with esbuild: one minified ES
// module with its dependencies (the typed client, openapi-fetch, lightweight-charts) and one
// style sheet. scripts/build-runtime.mjs calls it (compiled into dist/) and writes the files to
// dist/explorer/assets/; without them (tsx, tests) the router calls it once, in memory.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

/** The bundle's files by name: explorer.js and explorer.css. */
export type ExplorerBundle = Record<'explorer.js' | 'explorer.css', Buffer>;

// The same relative path from src/explorer/ and dist/explorer/ (both at the same depth).
const pageDir = fileURLToPath(new URL('../../src/explorer/page/', import.meta.url));

/** Browsers of the last few years: ES2020 modules, CSS custom properties, prefers-color-scheme. */
export const EXPLORER_TARGETS = ['chrome100', 'firefox100', 'safari15'];

export async function bundleExplorer(): Promise<ExplorerBundle> {
  const result = await build({
    entryPoints: [
      { in: `${pageDir}main.ts`, out: 'explorer' },
      { in: `${pageDir}explorer.css`, out: 'explorer' },
    ],
    outdir: '/explorer-bundle', // a name only: nothing is written
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: EXPLORER_TARGETS,
    minify: true,
    legalComments: 'eof', // lightweight-charts' Apache-2.0 notice stays in the file
    charset: 'utf8',
    write: false,
    logLevel: 'silent',
  });
  const file = (ext: string) => {
    const found = result.outputFiles.find((f) => f.path.endsWith(`/explorer.${ext}`));
    if (!found) throw new Error(`the explorer bundle has no explorer.${ext}`);
    return Buffer.from(found.contents);
  };
  return { 'explorer.js': file('js'), 'explorer.css': file('css') };
}

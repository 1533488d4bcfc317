import { readFile } from 'node:fs/promises';
import type { ExplorerBundle } from './bundleExplorer.ts';

// dist/explorer/assets/ when running the build's output; absent beside src/explorer/.
const builtDir = new URL('./assets/', import.meta.url);

/**
 * The bundle the build wrote beside this module (`npm start|serve`: dist/explorer/assets/), or,
 * when there is none (`npm run dev`, tests run from the sources), one bundled now in memory.
 */
export async function loadExplorerBundle(): Promise<ExplorerBundle> {
  try {
    const [js, css] = await Promise.all([readFile(new URL('explorer.js', builtDir)), readFile(new URL('explorer.css', builtDir))]);
    return { 'explorer.js': js, 'explorer.css': css };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    // esbuild is loaded only here: a process serving the build's files never loads it.
    const { bundleExplorer } = await import('./bundleExplorer.ts');
    return bundleExplorer();
  }
}

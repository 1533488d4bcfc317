// The explorer: a page served by the service that shows the market through the typed client.
// (bundleExplorer is imported from its own module: it loads esbuild, which a server never needs.)
export { createExplorerRouter, type ExplorerRouter, type ExplorerRouterOptions } from './createExplorerRouter.ts';
export type { ExplorerBundle } from './bundleExplorer.ts';
export { EXPLORER_CSP } from './explorerContentSecurityPolicy.ts';
export { EXPLORER_FILE_PATHS, EXPLORER_PATH } from './explorerPaths.ts';

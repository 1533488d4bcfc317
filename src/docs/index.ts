export { createDocsRouter, type DocsRouterOptions } from './createDocsRouter.ts';
export { buildDocs, type BuildDocsResult } from './buildDocs.ts';
export { renderRpcPage } from './renderRpcPage.ts';
export { renderLandingPage } from './renderLandingPage.ts';
export { listOperations, type OperationSummary } from './listOperations.ts';
export { contentSecurityPolicy } from './contentSecurityPolicy.ts';
export { defaultDocsDir, defaultSpecDir } from './docsPaths.ts';

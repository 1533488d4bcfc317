import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** Repository root, so paths hold whatever the working directory is. */
export const repoRoot = root;
/** Where `npm run docs` writes the site (gitignored). */
export const defaultDocsDir = join(root, 'docs-dist');
/** The two source documents everything is built from. */
export const defaultSpecDir = join(root, 'spec');
/** The files a complete build contains; the router serves nothing else from the docs directory. */
export const docsFiles = ['index.html', 'rest.html', 'rpc.html', 'openapi.yaml', 'openapi.json', 'openrpc.json'] as const;
/** Written last by a build: its presence marks a complete build and records what it was built from. */
export const buildInfoFile = 'build-info.json';

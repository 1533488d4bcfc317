import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { repoRoot } from './docsPaths.ts';
import { withOperationIds } from './withOperationIds.ts';

const run = promisify(execFile);

/** Resolved on use, not at import: a production install without dev dependencies still starts. */
function redoclyCli(): string {
  try {
    return join(dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')), 'bin', 'cli.js');
  } catch {
    throw new Error('building the REST reference needs @redocly/cli (a devDependency): run `npm run docs` where it is installed and ship docs-dist/');
  }
}

// Remote assets a Redoc page may reference; the page must load with no network.
const remoteAsset = /<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)\s*=\s*["']?(?:https?:)?\/\/|cdn\.redoc\.ly|fonts\.(?:googleapis|gstatic)\.com/i;
const googleFonts = /<link\b[^>]*fonts\.(?:googleapis|gstatic)\.com[^>]*>\s*/gi;
// Redoc's "API docs by Redocly" badge loads its logo from the CDN; the same attribution, drawn inline.
const redoclyLogo = /https:\/\/cdn\.redoc\.ly\/redoc\/logo-mini(?:-full)?\.svg/g;
const inlineLogo = `data:image/svg+xml,${encodeURIComponent(
  '<svg xmlns="http://www.w3.org/2000/svg" width="56" height="14" viewBox="0 0 56 14"><text x="0" y="11" font-family="sans-serif" font-size="11" font-weight="bold" fill="#0044D4">Redocly</text></svg>',
)}`;

/**
 * The REST reference: Redocly's `build-docs --inlineBundle` (Redoc's JS inlined, no CDN),
 * run as a child process since the CLI has no programmatic API. Telemetry and update checks off.
 */
export async function buildRestPage(openapi: { paths?: Record<string, unknown> }, title: string): Promise<string> {
  if (/"\$ref":"(?!#)/.test(JSON.stringify(openapi))) {
    throw new Error('openapi.yaml has external $refs: bundle it (redocly bundle) before building the docs');
  }
  const work = await mkdtemp(join(tmpdir(), 'token-api-rest-'));
  try {
    const input = join(work, 'openapi.json');
    await writeFile(input, JSON.stringify(withOperationIds(openapi)));
    const out = join(work, 'rest.html');
    await run(process.execPath, [redoclyCli(), 'build-docs', input, '--inlineBundle', '--title', title, '-o', out], {
      cwd: repoRoot,
      // Nothing of this process's environment (node URLs, database credentials) reaches the child.
      env: { REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', REDOCLY_SUPPRESS_NOTIFICATIONS: 'true', NO_COLOR: '1' },
      maxBuffer: 16 * 1024 * 1024,
    });
    const html = (await readFile(out, 'utf8'))
      .replace(googleFonts, '')
      .replace(redoclyLogo, inlineLogo)
      .replace(/<head>/i, '<head>\n  <link rel="icon" href="data:,">');
    const remote = remoteAsset.exec(html);
    if (remote) throw new Error(`rest.html references a remote asset: ${remote[0].slice(0, 200)}`);
    return html;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

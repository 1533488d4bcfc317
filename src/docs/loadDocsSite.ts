import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { contentSecurityPolicy } from './contentSecurityPolicy.ts';
import { docsFiles } from './docsPaths.ts';

export type DocsFile = { body: Buffer; contentType: string; csp?: string };

const contentTypes: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  yaml: 'application/yaml; charset=utf-8',
  json: 'application/json; charset=utf-8',
};

/** Reads a built site into memory (about 2.7 MB), each file with its content type and, for pages, its CSP. */
export async function loadDocsSite(dir: string): Promise<Map<string, DocsFile>> {
  const site = new Map<string, DocsFile>();
  for (const name of docsFiles) {
    const body = await readFile(join(dir, name));
    const ext = name.slice(name.lastIndexOf('.') + 1);
    const contentType = contentTypes[ext] ?? 'application/octet-stream';
    site.set(name, { body, contentType, csp: ext === 'html' ? contentSecurityPolicy(body.toString('utf8')) : undefined });
  }
  return site;
}

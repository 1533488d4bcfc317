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
  for (const name of docsFiles) site.set(name, docsFile(name, await readFile(join(dir, name))));
  return site;
}

/** The same site from pages rendered in memory. */
export function docsSiteFromPages(pages: Record<string, string>): Map<string, DocsFile> {
  return new Map(docsFiles.map((name) => [name, docsFile(name, Buffer.from(pages[name] ?? '', 'utf8'))]));
}

function docsFile(name: string, body: Buffer): DocsFile {
  const ext = name.slice(name.lastIndexOf('.') + 1);
  const contentType = contentTypes[ext] ?? 'application/octet-stream';
  return { body, contentType, csp: ext === 'html' ? contentSecurityPolicy(body.toString('utf8')) : undefined };
}

// Validates spec/openrpc.json against the OpenRPC meta-schema and resolves every $ref;
// also enforces the project rule that every schema carries a title (the typings generator
// names untitled schemas with hashes, which would make generated/rpc unreadable and unstable).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseOpenRPCDocument, validateOpenRPCDocument } from '@open-rpc/schema-utils-js';

const specPath = join(dirname(fileURLToPath(import.meta.url)), '..', 'spec', 'openrpc.json');

export async function lintOpenRpc(path: string = specPath): Promise<string[]> {
  const raw = JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;
  const problems: string[] = [];
  const valid = validateOpenRPCDocument(raw as never);
  if (valid !== true) problems.push(`meta-schema: ${valid.message}`);
  try {
    // parseOpenRPCDocument validates again and dereferences every $ref.
    await parseOpenRPCDocument(JSON.stringify(raw));
  } catch (err) {
    problems.push(`parse: ${(err as Error).message}`);
  }
  problems.push(...untitledSchemas(raw));
  return problems;
}

// Walks every schema position in the document; a schema that is only a $ref may omit the title.
function untitledSchemas(doc: Record<string, unknown>): string[] {
  const out: string[] = [];
  const visit = (schema: unknown, at: string): void => {
    if (typeof schema !== 'object' || schema === null) return;
    const s = schema as Record<string, unknown>;
    const onlyRef = typeof s.$ref === 'string' && Object.keys(s).every((k) => k === '$ref');
    if (!onlyRef && typeof s.title !== 'string') out.push(`untitled schema at ${at}`);
    for (const key of ['oneOf', 'anyOf', 'allOf'] as const) {
      const list = s[key];
      if (Array.isArray(list)) list.forEach((x, i) => visit(x, `${at}/${key}/${i}`));
    }
    if (s.items) visit(s.items, `${at}/items`);
    if (typeof s.properties === 'object' && s.properties) {
      for (const [k, v] of Object.entries(s.properties)) visit(v, `${at}/properties/${k}`);
    }
  };
  const components = (doc.components ?? {}) as { schemas?: Record<string, unknown> };
  for (const [name, schema] of Object.entries(components.schemas ?? {})) visit(schema, `#/components/schemas/${name}`);
  const methods = (Array.isArray(doc.methods) ? doc.methods : []) as Array<{ name: string; params?: unknown; result?: { schema: unknown } }>;
  for (const m of methods) {
    const params = (Array.isArray(m.params) ? m.params : []) as Array<{ name: string; schema: unknown }>;
    params.forEach((p) => visit(p.schema, `${m.name}/params/${p.name}`));
    if (m.result) visit(m.result.schema, `${m.name}/result`);
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const problems = await lintOpenRpc(process.argv[2] ?? specPath);
  for (const p of problems) console.error(`openrpc: ${p}`);
  if (problems.length > 0) process.exit(1);
  console.log('openrpc: spec/openrpc.json is valid');
}

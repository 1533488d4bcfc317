import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parse } from 'yaml';

export type SpecDocuments = { openapiYaml: string; openapiJson: string; openrpcJson: string };

/** The raw documents as served at /openapi.yaml, /openapi.json (converted from the YAML) and /openrpc.json. */
export async function loadSpecDocuments(specDir: string): Promise<SpecDocuments> {
  const openapiYaml = await readFile(join(specDir, 'openapi.yaml'), 'utf8');
  const openrpcJson = await readFile(join(specDir, 'openrpc.json'), 'utf8');
  JSON.parse(openrpcJson); // fail here rather than serve a broken document
  return { openapiYaml, openapiJson: `${JSON.stringify(parse(openapiYaml), null, 2)}\n`, openrpcJson };
}

import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { inlineRefs, resolveRef, type Ref } from './resolveRef.ts';
import { openapiSpecPath } from './specPaths.ts';

export type Schema = Record<string, unknown>;
export type OpenApiParameter = { name: string; in: string; required?: boolean; style?: string; explode?: boolean; schema: Schema };
export type OpenApiMediaType = { schema?: Schema };
export type OpenApiHeader = { required?: boolean; schema?: Schema };
export type OpenApiResponse = { content?: Record<string, OpenApiMediaType>; headers?: Record<string, OpenApiHeader | Ref> };
export type OpenApiOperation = { operationId?: string; parameters?: (OpenApiParameter | Ref)[]; responses?: Record<string, OpenApiResponse | Ref> };
export type OpenApiDocument = {
  paths: Record<string, Record<string, OpenApiOperation>>;
  components?: Record<string, Record<string, unknown>>;
};

const loaded = new Map<string, OpenApiDocument>();

/** spec/openapi.yaml (or another document), parsed once per process. */
export function readOpenApiDocument(path: string = openapiSpecPath): OpenApiDocument {
  let doc = loaded.get(path);
  if (!doc) {
    doc = parse(readFileSync(path, 'utf8')) as OpenApiDocument;
    loaded.set(path, doc);
  }
  return doc;
}

/** An operation's parameters with their schemas, every reference inlined. */
export function operationParameters(doc: OpenApiDocument, path: string, method: string): OpenApiParameter[] {
  const operation = doc.paths[path]?.[method];
  if (!operation) throw new Error(`${method.toUpperCase()} ${path} is not in the OpenAPI document`);
  return (operation.parameters ?? []).map((p) => {
    const parameter = resolveRef<OpenApiParameter>(doc, p);
    return { ...parameter, schema: inlineRefs(doc, parameter.schema) as Schema };
  });
}

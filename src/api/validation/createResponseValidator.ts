import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { inlineRefs, resolveRef } from '../../spec/resolveRef.ts';
import { readOpenApiDocument, type OpenApiDocument, type OpenApiHeader, type OpenApiResponse } from '../../spec/readOpenApiDocument.ts';

/** A finished response as the client receives it. */
export type RecordedResponse = {
  method: string;
  /** The request URL (path and query). */
  url: string;
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The bytes sent, as encoded on the wire (Content-Encoding applies). */
  body: Buffer;
};

/** Checks responses against the OpenAPI document: the spec violations of one, or none. */
export type ResponseValidator = (response: RecordedResponse) => string[];

type MediaCheck = { validate: ValidateFunction | undefined };
type ResponseCheck = { media: Map<string, MediaCheck>; headers: [string, boolean, ValidateFunction | undefined][] };
type OperationCheck = { path: string; pattern: RegExp; responses: Map<string, ResponseCheck> };

const JSON_TYPES = /^application\/(?:[\w.+-]+\+)?json$/;

/**
 * Compiles every operation's responses of the OpenAPI document once: for a response of an
 * operation in the document it checks that the status is declared (or `default` is), that the
 * media type is one the status declares, that the body is valid for that media type's schema
 * (JSON parsed; text as a string) and that declared headers present (and required ones) are
 * valid. HEAD is checked as GET without the body; a 304 needs no body. Responses of paths outside
 * the document (docs, health, JSON-RPC) are not checked.
 */
export function createResponseValidator(doc: OpenApiDocument = readOpenApiDocument()): ResponseValidator {
  const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
  addFormats.default(ajv);
  const compile = (schema: unknown) => (schema === undefined ? undefined : ajv.compile(inlineRefs(doc, schema) as object));
  const operations: OperationCheck[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    const get = item.get;
    if (!get) continue;
    const responses = new Map<string, ResponseCheck>();
    for (const [status, declared] of Object.entries(get.responses ?? {})) {
      const response = resolveRef<OpenApiResponse>(doc, declared);
      const media = new Map<string, MediaCheck>();
      for (const [type, content] of Object.entries(response.content ?? {})) media.set(type, { validate: compile(content.schema) });
      const headers = Object.entries(response.headers ?? {}).map(([name, h]): [string, boolean, ValidateFunction | undefined] => {
        const header = resolveRef<OpenApiHeader>(doc, h);
        return [name.toLowerCase(), header.required === true, compile(header.schema)];
      });
      responses.set(status, { media, headers });
    }
    const pattern = new RegExp(`^${path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\\\{[^}]+\\\}/g, '[^/]+')}$`);
    operations.push({ path, pattern, responses });
  }

  return (response) => {
    const method = response.method.toUpperCase();
    if (method !== 'GET' && method !== 'HEAD') return [];
    const path = response.url.split('?', 1)[0] ?? response.url;
    const operation = operations.find((o) => o.pattern.test(path));
    if (!operation) return [];
    const where = `${method} ${path} → ${response.status}`;
    if (response.status === 304) return response.body.length === 0 ? [] : [`${where}: a 304 has a body`];
    const check = operation.responses.get(String(response.status)) ?? operation.responses.get('default');
    if (!check) return [`${where}: status not declared for ${operation.path}`];
    const problems: string[] = [];
    for (const [name, required, validate] of check.headers) {
      const raw = response.headers[name];
      if (raw === undefined) {
        if (required) problems.push(`${where}: header ${name} is required`);
        continue;
      }
      const value = Array.isArray(raw) ? raw.join(', ') : raw;
      const typed = /^-?\d+$/.test(value) ? Number(value) : value;
      if (validate && !validate(typed) && !validate(value)) problems.push(`${where}: header ${name}: ${ajv.errorsText(validate.errors)}`);
    }
    const contentType = String(response.headers['content-type'] ?? '');
    const type = contentType.split(';', 1)[0]!.trim().toLowerCase();
    if (check.media.size === 0) return problems;
    const media = check.media.get(type);
    if (!media) return [...problems, `${where}: content type "${contentType}" is not one of ${[...check.media.keys()].join(', ')}`];
    if (method === 'HEAD' || !media.validate) return problems;
    let text: string;
    try {
      const encoding = String(response.headers['content-encoding'] ?? 'identity').toLowerCase();
      const decode = { gzip: gunzipSync, br: brotliDecompressSync, deflate: inflateSync, identity: (b: Buffer) => b }[encoding];
      if (!decode) return [...problems, `${where}: unknown content encoding ${encoding}`];
      text = decode(response.body).toString('utf8');
    } catch (error) {
      return [...problems, `${where}: body cannot be decoded: ${String(error)}`];
    }
    let value: unknown = text;
    if (JSON_TYPES.test(type)) {
      try {
        value = JSON.parse(text);
      } catch {
        return [...problems, `${where}: body is not JSON`];
      }
    }
    if (!media.validate(value)) problems.push(`${where}: body: ${ajv.errorsText(media.validate.errors, { separator: '; ' })}`);
    return problems;
  };
}

// The operation table: spec/openapi.yaml -> generated/openapi/operations.json, one entry per
// operationId with its method, path (and Express route), parameters (schemas inlined), the media
// types of each response, and what its answers need (the operation's `x-answer`); and
// generated/openapi/operations.ts, its types: the table's own (literal), and each operation's
// parameter and body types, from generated/openapi/types.ts. The server reads the JSON
// (src/spec/operationTable.ts: plain node runs dist/, which compiles src/ only) and builds its
// routes from it (src/api/operations/).
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { inlineRefs, resolveRef } from '../../src/spec/resolveRef.ts';
import { readOpenApiDocument, type OpenApiDocument, type OpenApiParameter, type OpenApiResponse, type Schema } from '../../src/spec/readOpenApiDocument.ts';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** What `x-answer` may say; its `clock` in milliseconds. */
const FROM = ['catalogue', 'priceHistories', 'database', 'supply'] as const;
const CLOCK_MS: Record<string, number | null> = { none: null, '5m': 300_000, hour: 3_600_000 };
const METHODS = ['get'] as const;

type Entry = {
  operationId: string;
  method: (typeof METHODS)[number];
  path: string;
  route: string;
  parameters: { name: string; in: 'path' | 'query'; required: boolean; style?: string; explode?: boolean; schema: Schema }[];
  defaulted: string[];
  responses: Record<string, string[]>;
  answer: { from: (typeof FROM)[number]; cacheable: boolean; readsDatabase: boolean; clockMs: number | null };
};

/** Keys of schemas that describe rather than constrain: left out of the table. */
const PROSE = new Set(['description', 'examples', 'example', 'title']);

function constraints(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(constraints);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(Object.entries(node).filter(([k]) => !PROSE.has(k)).map(([k, v]) => [k, constraints(v)]));
}

function entriesOf(doc: OpenApiDocument): Entry[] {
  const entries: Entry[] = [];
  for (const [path, item] of Object.entries(doc.paths)) {
    for (const [method, operation] of Object.entries(item)) {
      const where = `${method.toUpperCase()} ${path}`;
      if (!METHODS.some((m) => m === method)) throw new Error(`${where}: only ${METHODS.join(', ')} operations are supported`);
      const id = operation.operationId;
      if (!id || !/^[a-z][A-Za-z0-9]*$/.test(id)) throw new Error(`${where}: needs an operationId in camelCase`);
      if (entries.some((e) => e.operationId === id)) throw new Error(`${where}: operationId ${id} is used twice`);
      const parameters = (operation.parameters ?? []).map((p): Entry['parameters'][number] => {
        const parameter = resolveRef<OpenApiParameter>(doc, p);
        const place = parameter.in;
        if (place !== 'path' && place !== 'query') throw new Error(`${where}: ${place} parameters are not supported`);
        return {
          name: parameter.name,
          in: place,
          required: parameter.required === true,
          ...(parameter.style === undefined ? {} : { style: parameter.style }),
          ...(parameter.explode === undefined ? {} : { explode: parameter.explode }),
          schema: constraints(inlineRefs(doc, parameter.schema)) as Schema,
        };
      });
      const templated = [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]!);
      const inPath = parameters.filter((p) => p.in === 'path').map((p) => p.name);
      if (templated.join() !== inPath.join()) throw new Error(`${where}: path parameters ${inPath.join()} do not match the template`);
      const responses = Object.fromEntries(
        Object.entries(operation.responses ?? {}).map(([status, r]) => [status, Object.keys(resolveRef<OpenApiResponse>(doc, r).content ?? {})]),
      );
      if (!responses['200']) throw new Error(`${where}: no 200 answer`);
      entries.push({
        operationId: id,
        method: 'get',
        path,
        route: path.replace(/\{([^}]+)\}/g, ':$1'),
        parameters,
        defaulted: parameters.filter((p) => p.in === 'query' && !p.required && p.schema.default !== undefined).map((p) => p.name),
        responses,
        answer: answerOf(where, (operation as Record<string, unknown>)['x-answer']),
      });
    }
  }
  return entries;
}

function answerOf(where: string, raw: unknown): Entry['answer'] {
  const x = (raw ?? {}) as Record<string, unknown>;
  const from = FROM.find((f) => f === x.from);
  if (!from) throw new Error(`${where}: x-answer.from must be one of ${FROM.join(', ')}`);
  if (typeof x.cacheable !== 'boolean') throw new Error(`${where}: x-answer.cacheable must be true or false`);
  if (typeof x.clock !== 'string' || !(x.clock in CLOCK_MS)) throw new Error(`${where}: x-answer.clock must be one of ${Object.keys(CLOCK_MS).join(', ')}`);
  const unknown = Object.keys(x).filter((k) => !['from', 'cacheable', 'clock'].includes(k));
  if (unknown.length) throw new Error(`${where}: x-answer has unknown keys ${unknown.join(', ')}`);
  return { from, cacheable: x.cacheable, readsDatabase: from === 'database', clockMs: CLOCK_MS[x.clock]! };
}

const PREAMBLE = `// Generated by \`npm run generate\` from spec/openapi.yaml (scripts/generate/15-openapi-operations.ts). Do not edit.
// The types of operations.json, which src/spec/operationTable.ts reads.
import type { operations as Spec } from './types.ts';

/** A parameter as the spec declares it, its schema's references inlined (descriptions left out). */
export type OperationParameter = {
  readonly name: string;
  readonly in: 'path' | 'query';
  readonly required: boolean;
  readonly style?: string;
  readonly explode?: boolean;
  readonly schema: { readonly [keyword: string]: unknown };
};

/** What an operation's answers need, from its \`x-answer\`. */
export type AnswerNeeds = {
  /** What answers are built from: the token catalogue or the price histories held in memory, the database (read per answer), or the supply service (the chain node). */
  readonly from: 'catalogue' | 'priceHistories' | 'database' | 'supply';
  /** True when the response cache keeps its 200s per data version. */
  readonly cacheable: boolean;
  /** True when every answer reads the database (\`from: database\`). */
  readonly readsDatabase: boolean;
  /** The wall-clock period its answers move with, in ms; null when they do not. */
  readonly clockMs: number | null;
};

export type Operation = {
  readonly operationId: string;
  readonly method: 'get';
  /** The spec's path template, \`/tokens/{contractAddress}\`. */
  readonly path: string;
  /** The same path as an Express route, \`/tokens/:contractAddress\` (the metrics label too). */
  readonly route: string;
  readonly parameters: readonly OperationParameter[];
  /** Query parameters with a default in the spec: always present in the parameters an answer gets. */
  readonly defaulted: readonly string[];
  /** The media types of each status the spec declares (\`default\` included). */
  readonly responses: { readonly [status: string]: readonly string[] };
  readonly answer: AnswerNeeds;
};

type Flat<T> = { [K in keyof T]: T[K] } & {};
/** \`T\` with the keys \`D\` present: the spec's defaults applied. */
type WithDefaults<T, D extends keyof T> = Flat<Omit<T, D> & { [K in D]-?: Exclude<T[K], undefined> }>;
`;

/** The table for `doc`: its JSON and the TypeScript of its types. */
export function renderOperationTable(doc: OpenApiDocument): { json: string; types: string } {
  const entries = entriesOf(doc);
  const table = JSON.stringify(Object.fromEntries(entries.map((e) => [e.operationId, e])), null, 2);
  const params = entries.map((e) => {
    const parts = [
      ...(e.parameters.some((p) => p.in === 'path') ? [`Spec['${e.operationId}']['parameters']['path']`] : []),
      ...(e.parameters.some((p) => p.in === 'query') ? [`NonNullable<Spec['${e.operationId}']['parameters']['query']>`] : []),
    ];
    const all = parts.length ? parts.join(' & ') : 'Record<never, never>';
    const type = e.defaulted.length ? `WithDefaults<${all}, ${e.defaulted.map((d) => `'${d}'`).join(' | ')}>` : `Flat<${all}>`;
    return `  ${e.operationId}: ${type};`;
  });
  const bodies = entries.map((e) => `  ${e.operationId}: Spec['${e.operationId}']['responses'][200]['content'];`);
  const types = `${PREAMBLE}
/** Every operation of the spec, by operationId, in the spec's order: operations.json, exactly. */
export type OperationTable = ${table};

/** The table is a table of operations (checked here, where it is generated). */
type Checked<T extends { readonly [operationId: string]: Operation }> = T;
export type Operations = Checked<OperationTable>;

export type OperationId = keyof OperationTable;

/** Each operation's path and query parameters as its answer gets them: validated, the spec's defaults applied. */
export type OperationParams = {
${params.join('\n')}
};

/** Each operation's 200 bodies, by media type. */
export type OperationBodies = {
${bodies.join('\n')}
};
`;
  return { json: `${table}\n`, types };
}

export default async function generateOperationTable(): Promise<void> {
  const out = join(root, 'generated', 'openapi');
  mkdirSync(out, { recursive: true });
  const { json, types } = renderOperationTable(readOpenApiDocument(join(root, 'spec', 'openapi.yaml')));
  writeFileSync(join(out, 'operations.json'), json);
  writeFileSync(join(out, 'operations.ts'), types);
}

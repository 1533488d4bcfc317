// A spec change the code does not follow fails the type check, for every body the API builds
// (candles and price-at included), for parameters and for the set of operations: each case
// mutates a copy of spec/openapi.yaml, regenerates generated/openapi/ from it in memory (the
// generator's own steps), and type-checks the file that builds that body against the result.
// The file must check cleanly against the real spec and fail against the mutated one.
import assert from 'node:assert/strict';
import { join, resolve } from 'node:path';
import { before, describe, it } from 'node:test';
import ts from 'typescript';
import { stringify } from 'yaml';
import { renderOpenapiTypes } from '../../../scripts/generate/10-openapi-types.ts';
import { renderOperationTable } from '../../../scripts/generate/15-openapi-operations.ts';
import { readOpenApiDocument, type OpenApiDocument } from '../../../src/spec/readOpenApiDocument.ts';

const root = resolve(import.meta.dirname, '..', '..', '..');
const generated = join(root, 'generated', 'openapi');

type Schema = { required?: string[]; properties?: Record<string, unknown>; [keyword: string]: unknown };
type Doc = OpenApiDocument & { components: { schemas: Record<string, Schema>; parameters: Record<string, { name: string }> } };
type Case = { change: string; mutate: (doc: Doc) => void; breaks: string[] };

/** A required property the code does not write. */
const addRequired = (schema: string) => (doc: Doc) => {
  const s = doc.components.schemas[schema]!;
  s.properties = { ...s.properties, probe: { type: 'string' } };
  s.required = [...(s.required ?? []), 'probe'];
};
/** A property's type changed. */
const retype = (schema: string, property: string, to: unknown) => (doc: Doc) => {
  doc.components.schemas[schema]!.properties![property] = to;
};

const cases: Case[] = [
  { change: 'Token gains a required property', mutate: addRequired('Token'), breaks: ['src/readModel/tokens/toToken.ts'] },
  { change: 'TokenPage gains a required property', mutate: addRequired('TokenPage'), breaks: ['src/readModel/tokens/pageAnswer.ts'] },
  { change: 'PageMeta gains a required property', mutate: addRequired('PageMeta'), breaks: ['src/readModel/tokens/createTokenCatalog.ts', 'src/readModel/tokens/createPoolIndex.ts'] },
  { change: 'Pool gains a required property', mutate: addRequired('Pool'), breaks: ['src/readModel/tokens/toPool.ts'] },
  { change: 'PoolPage gains a required property', mutate: addRequired('PoolPage'), breaks: ['src/readModel/tokens/createPoolIndex.ts'] },
  { change: 'PricePoint gains a required property', mutate: addRequired('PricePoint'), breaks: ['src/readModel/prices/createPriceHistoryStore.ts'] },
  { change: "PricePoint's price becomes a string", mutate: retype('PricePoint', 'price', { type: 'string' }), breaks: ['src/readModel/prices/createPriceHistoryStore.ts'] },
  {
    change: 'PriceHistories maps addresses to prices instead of histories',
    mutate: (doc) => void (doc.components.schemas.PriceHistories = { ...doc.components.schemas.PriceHistories, additionalProperties: { type: 'number' } }),
    breaks: ['src/readModel/prices/createPriceHistoryStore.ts'],
  },
  { change: 'CandleSeries gains a required property', mutate: addRequired('CandleSeries'), breaks: ['src/readModel/candles/serialiseCandles.ts'] },
  { change: "Candles' open column holds strings", mutate: retype('Candles', 'open', { type: 'array', items: { type: 'string' } }), breaks: ['src/readModel/candles/serialiseCandles.ts'] },
  { change: 'PriceAt gains a required property', mutate: addRequired('PriceAt'), breaks: ['src/readModel/prices/readPriceAt.ts'] },
  { change: "PriceAt's blockNumber becomes a string", mutate: retype('PriceAt', 'blockNumber', { type: 'string' }), breaks: ['src/readModel/prices/readPriceAt.ts'] },
  { change: 'TotalSupply gains a required property', mutate: addRequired('TotalSupply'), breaks: ['src/readModel/supply/toSupplyBody.ts'] },
  { change: 'CirculatingSupply gains a required property', mutate: addRequired('CirculatingSupply'), breaks: ['src/readModel/supply/toSupplyBody.ts'] },
  {
    change: 'the raw supply (text/plain) becomes a number',
    mutate: (doc) => void (doc.components.schemas.TokenUnits = { type: 'number' }),
    breaks: ['src/api/handlers/getTotalSupply.ts', 'src/api/handlers/getCirculatingSupply.ts'],
  },
  {
    change: 'the limit parameter is renamed',
    mutate: (doc) => void (doc.components.parameters.Limit!.name = 'pageSize'),
    breaks: ['src/api/handlers/listTokens.ts', 'src/api/handlers/listTokenPools.ts'],
  },
  {
    change: "the candles' interval parameter loses its default",
    mutate: (doc) => void delete doc.components.schemas.CandleIntervalName!.default,
    breaks: ['src/readModel/candles/resolveCandleRange.ts'],
  },
  {
    change: 'an operation is added',
    mutate: (doc) => void (doc.paths['/probe'] = { get: { ...doc.paths['/prices/{contractAddress}/at']!.get!, operationId: 'getProbe', parameters: [] } }),
    breaks: ['src/api/operations/operationAnswers.ts'],
  },
  {
    change: 'an operation is removed',
    mutate: (doc) => void delete doc.paths['/prices/{contractAddress}/at'],
    breaks: ['src/api/operations/operationAnswers.ts'],
  },
];

/** Type-checks `files` with generated/openapi/ replaced by `replaced` (all of src/ is compiled through its imports). */
function createChecker() {
  const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.json'), {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })!;
  const options = { ...config.options, noEmit: true };
  const base = ts.createCompilerHost(options, true);
  const parsed = new Map<string, ts.SourceFile | undefined>();
  let oldProgram: ts.Program | undefined;
  return (files: string[], replaced: Map<string, string>): Map<string, string[]> => {
    const host: ts.CompilerHost = {
      ...base,
      fileExists: (f) => replaced.has(resolve(f)) || base.fileExists(f),
      readFile: (f) => replaced.get(resolve(f)) ?? base.readFile(f),
      getSourceFile(fileName, language, onError) {
        const text = replaced.get(resolve(fileName));
        if (text !== undefined) return ts.createSourceFile(fileName, text, language, true);
        if (!parsed.has(fileName)) parsed.set(fileName, base.getSourceFile(fileName, language, onError));
        return parsed.get(fileName);
      },
    };
    const program = ts.createProgram({ rootNames: files.map((f) => join(root, f)), options, host, oldProgram });
    oldProgram = program;
    return new Map(files.map((f) => [f, program.getSemanticDiagnostics(program.getSourceFile(join(root, f))).map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '))]));
  };
}

async function generatedFrom(doc: OpenApiDocument): Promise<Map<string, string>> {
  return new Map([
    [join(generated, 'types.ts'), await renderOpenapiTypes(stringify(doc))],
    [join(generated, 'operations.ts'), renderOperationTable(doc).types],
  ]);
}

describe('a spec change the code does not follow fails the type check', () => {
  const check = createChecker();
  const spec = readOpenApiDocument();
  const files = [...new Set(cases.flatMap((c) => c.breaks))];

  before(async () => {
    const clean = check(files, await generatedFrom(spec));
    for (const [file, errors] of clean) assert.deepEqual(errors, [], `${file} checks cleanly against the spec`);
  });

  for (const c of cases) {
    it(`${c.change}: ${c.breaks.join(', ')}`, async (t) => {
      const doc = structuredClone(spec) as Doc;
      c.mutate(doc);
      const errors = check(c.breaks, await generatedFrom(doc));
      for (const file of c.breaks) {
        const found = errors.get(file)!;
        assert.ok(found.length > 0, `${file} still type-checks`);
        t.diagnostic(`${file}: ${found[0]!.slice(0, 300)}`);
      }
    });
  }
});

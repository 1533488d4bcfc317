// The DEX-family registry is the one list of families: every kind maps to one spec family and
// every spec family comes from some kind, the SQL constraint on stored pools lists exactly the
// registry's kinds, and the configuration's factory types are the registry's.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readOpenApiDocument } from '../../../src/spec/readOpenApiDocument.ts';
import { FACTORY_TYPES, FAMILIES, POOL_KINDS } from '../../../src/indexer/families/index.ts';
import { factoryFamilies } from '../../../src/indexer/families/factoryFamilies.ts';
import { ConfigError } from '../../../src/errors/index.ts';
import type { Database } from '../../../src/db/index.ts';
import { openPglite } from '../../helpers/pglite.ts';

describe('the DEX-family registry', () => {
  let db: Database;
  before(async () => {
    db = await openPglite();
  });
  after(() => db.close());

  it('maps every kind to one spec family, and every spec family comes from some kind', () => {
    const doc = readOpenApiDocument() as unknown as { components: { schemas: { Pool: { properties: { family: { enum: string[] } } } } } };
    const specFamilies = doc.components.schemas.Pool.properties.family.enum;
    assert.equal(new Set(POOL_KINDS).size, POOL_KINDS.length, 'kinds are unique');
    for (const family of FAMILIES) assert.ok(specFamilies.includes(family.api), `${family.kind} → ${family.api} is a spec family`);
    assert.deepEqual([...new Set(FAMILIES.map((f) => f.api))].sort(), [...specFamilies].sort());
  });

  it('the SQL CHECK on indexer_pools.kind lists exactly the registry kinds', async () => {
    const [row] = await db.query<{ def: string }>(`SELECT pg_get_constraintdef(oid) AS def FROM pg_constraint WHERE conname = 'indexer_pools_kind_check'`);
    assert.ok(row, 'the constraint exists');
    const kinds = [...row.def.matchAll(/'([^']+)'::text/g)].map((m) => m[1]);
    assert.deepEqual(kinds.sort(), [...POOL_KINDS].sort(), row.def);
  });

  it('every factory type belongs to one family; the configuration names unknown types and factories listed twice', () => {
    assert.equal(FACTORY_TYPES.size, FAMILIES.reduce((n, f) => n + Object.keys(f.factoryTypes).length, 0));
    const a = '0x00000000000000000000000000000000000000a1';
    const resolved = factoryFamilies({ factories: { 'syncswap-stable': [{ address: a, fromBlock: 716 }] } });
    assert.deepEqual({ ...resolved.get(a), family: resolved.get(a)!.family.kind }, { family: 'syncswap', stable: true, fromBlock: 716 });
    assert.throws(
      () => factoryFamilies({ factories: { uniswap: [{ address: a, fromBlock: 0 }], v2: [{ address: a, fromBlock: 0 }], v3: [{ address: a, fromBlock: 0 }] } }),
      (e: unknown) => e instanceof ConfigError && e.problems.length === 2 && /INDEXER_UNISWAP_FACTORIES/.test(e.message) && /listed under two types/.test(e.message),
    );
  });
});

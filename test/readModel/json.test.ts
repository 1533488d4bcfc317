// The typed JSON writers put together exactly the bytes JSON.stringify gives for a value typed as
// the spec's schema, over generated cases; and a writer that leaves out one of the schema's
// properties, or is given the wrong type of field, does not compile.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createPrng, type Prng } from '../../src/demo/prng.ts';
import {
  joinJsonNumbers, jsonArray, jsonNumber, jsonObjectPieces, jsonObjectWriter, jsonRecord, splitJsonNumbers, toJson, type Json,
} from '../../src/readModel/json.ts';
import type { PageMeta, PriceHistories, PriceHistory, PricePoint, TokenPage } from '../../src/readModel/types.ts';

const CASES = 2000;

/** Numeric column text as PostgreSQL writes numerics and doubles: plain, long, tiny, huge, signed, exponents. */
function numericText(r: Prng): string {
  switch (r.int(0, 6)) {
    case 0: return String(r.int(0, 1_000_000));
    case 1: return `${r.int(0, 99999)}.${String(r.int(0, 10 ** 9)).padStart(9, '0')}`;
    case 2: return `0.${'0'.repeat(r.int(0, 30))}${r.int(1, 999999999)}`;
    case 3: return `${'9'.repeat(r.int(1, 40))}.${r.int(0, 999)}`;
    case 4: return `-${r.int(0, 5000)}.${r.int(0, 99)}`;
    case 5: return `${r.int(1, 9)}.${r.int(0, 9999)}e${r.int(-40, 40)}`;
    default: return r.pick(['0', '-0', '0.000', '1e400', 'NaN', 'Infinity', '-Infinity']);
  }
}

const hourIso = (r: Prng) => new Date(Date.UTC(2026, 10, 21) + r.int(-48, 48) * 3_600_000).toISOString();

/** A history as the store holds it: each price as its column text, each point's hour. */
function history(r: Prng): { texts: string[]; hours: string[] } {
  const n = r.int(0, 24);
  return { texts: Array.from({ length: n }, () => numericText(r)), hours: Array.from({ length: n }, () => hourIso(r)) };
}

const pricePoint = jsonObjectWriter<PricePoint>()(['price', 'timestamp']);

describe('typed JSON writers', () => {
  it(`jsonNumber writes what JSON.stringify writes for the number (${CASES} generated column texts)`, () => {
    const r = createPrng(1);
    for (let i = 0; i < CASES; i++) {
      const text = numericText(r);
      assert.equal(jsonNumber(text), JSON.stringify(Number(text)), text);
    }
  });

  it(`a price history from the writers equals JSON.stringify of the PriceHistory (${CASES} generated)`, () => {
    const r = createPrng(2);
    for (let i = 0; i < CASES; i++) {
      const { texts, hours } = history(r);
      // as the store holds prices: joined, split again when written
      const held = splitJsonNumbers(joinJsonNumbers(texts.map(jsonNumber)));
      const written = jsonArray(held.map((price, k) => pricePoint(price, toJson(hours[k]!))));
      const value = texts.map((t, k) => ({ price: Number(t), timestamp: hours[k]! })) satisfies PriceHistory;
      assert.equal(written, JSON.stringify(value));
    }
  });

  it(`price histories by address from jsonRecord equal JSON.stringify of the PriceHistories (${CASES / 10} generated)`, () => {
    const r = createPrng(3);
    for (let i = 0; i < CASES / 10; i++) {
      const tokens = Array.from({ length: r.int(0, 12) }, (_, k) => ({ address: `0x${(k + 1).toString(16).padStart(40, '0').toUpperCase()}`, ...history(r) }));
      const written: Json<PriceHistories> = jsonRecord(tokens.map((t) => [t.address, jsonArray(t.texts.map((p, k) => pricePoint(jsonNumber(p), toJson(t.hours[k]!))))] as const));
      const value = Object.fromEntries(tokens.map((t) => [t.address, t.texts.map((p, k) => ({ price: Number(p), timestamp: t.hours[k]! }))])) satisfies PriceHistories;
      assert.equal(written, JSON.stringify(value));
    }
  });

  it("writes an object's keys in the order given, each once and all of them", () => {
    assert.deepEqual(jsonObjectPieces<TokenPage>()(['data', 'meta']), ['{"data":', ',"meta":']);
    const meta = jsonObjectWriter<PageMeta>()(['page', 'limit', 'totalItemsCount', 'pagesCount']);
    const value = { page: 3, limit: 20, totalItemsCount: 41, pagesCount: 3 } satisfies PageMeta;
    assert.equal(meta(toJson(3), toJson(20), toJson(41), toJson(3)), JSON.stringify(value));
    assert.throws(() => jsonObjectPieces<PricePoint>()(['price', 'timestamp', 'price']), /distinct/);
    // Type errors, checked by `npm run typecheck`: a key of the schema left out, a field of the wrong type.
    // @ts-expect-error PricePoint has a timestamp too
    jsonObjectWriter<PricePoint>()(['price']);
    // @ts-expect-error a PricePoint's price is a number, not a string
    pricePoint(toJson('1.5'), toJson('2026-11-21T00:00:00.000Z'));
  });
});

// JSON text typed by the value it encodes, so that the spec's body types (generated/openapi/
// types.ts) reach every serialised answer: a Json<CandleSeries> is the text JSON.stringify gives
// for a CandleSeries. toJson writes one from a typed value; the writers below put one together
// from typed parts, for hand-tuned serialisers that never build the value (price histories, the
// token page). Each of those is checked byte for byte against JSON.stringify of a value typed as
// the spec's schema (test/readModel/json.test.ts and the serialisers' own tests).

declare const encodes: unique symbol;

/** The JSON text of a value of type T, exactly as JSON.stringify writes it. */
export type Json<T> = string & { readonly [encodes]: T };
/** The same text as UTF-8 bytes. */
export type JsonBytes<T> = Buffer & { readonly [encodes]: T };
/** UTF-8 JSON bytes with their ETag, computed by their producer more cheaply than hashing them. */
export type TaggedJson<T> = { bytes: JsonBytes<T>; etag: string };

/** JSON.stringify, typed: give T explicitly (`toJson<PriceAt>({…})`) so that an object literal is checked for excess fields. */
export function toJson<T>(value: T): Json<T> {
  return JSON.stringify(value) as Json<T>;
}

/** A numeric column's text as JSON writes the number it parses to (`null` when not finite, as JSON.stringify). */
export function jsonNumber(text: string): Json<number> {
  const n = Number(text);
  return (Number.isFinite(n) ? String(n) : 'null') as Json<number>;
}

/** `[a,b,…]` from the items' JSON. */
export function jsonArray<T>(items: readonly Json<T>[]): Json<T[]> {
  return `[${items.join(',')}]` as Json<T[]>;
}

/** `{"key":value,…}` from the values' JSON, in the order given (keys are written with JSON.stringify). */
export function jsonRecord<T>(entries: Iterable<readonly [string, Json<T>]>): Json<Record<string, T>> {
  let out = '';
  for (const [key, value] of entries) out += `${out ? ',' : ''}${JSON.stringify(key)}:${value}`;
  return `{${out}}` as Json<Record<string, T>>;
}

/** Numbers' JSON joined by commas: one string for many numbers (memory), split again when written. */
export type JoinedJsonNumbers = string & { readonly [encodes]: number[] };

export function joinJsonNumbers(items: readonly Json<number>[]): JoinedJsonNumbers {
  return items.join(',') as JoinedJsonNumbers;
}

export function splitJsonNumbers(joined: JoinedJsonNumbers): Json<number>[] {
  return joined === '' ? [] : (joined.split(',') as Json<number>[]);
}

/** The keys of T that `K` leaves out; never when it lists them all. */
type Missing<T, K extends readonly PropertyKey[]> = Exclude<keyof T, K[number]>;
/** `keys` when they name every property of T; otherwise a type that says which are missing. */
type EveryKey<T, K extends readonly PropertyKey[]> = [Missing<T, K>] extends [never] ? K : K & { missingKeys: Missing<T, K> };
/** The JSON of each field named by K, in K's order. */
type FieldsJson<T, K extends readonly (keyof T)[]> = { readonly [I in keyof K]: K[I] extends keyof T ? Json<T[K[I]]> : never };

/**
 * The text before each field of a T written with `keys` in this order (`{"a":`, `,"b":`, …; `}`
 * closes it). `keys` must name every property of T (a spec change that adds one fails the type
 * check here), each once. For objects without optional properties.
 */
export function jsonObjectPieces<T>() {
  return <const K extends readonly (keyof T & string)[]>(keys: EveryKey<T, K>): string[] => {
    if (keys.length === 0 || new Set(keys).size !== keys.length) throw new Error(`jsonObjectPieces: keys must be distinct and not empty: ${keys.join()}`);
    return keys.map((key, i) => `${i === 0 ? '{' : ','}${JSON.stringify(key)}:`);
  };
}

/**
 * A writer of T objects from their fields' JSON, `keys` in this order (see jsonObjectPieces):
 * `jsonObjectWriter<PricePoint>()(['price', 'timestamp'])` takes a Json<number> and a
 * Json<string>, as the spec's PricePoint has them.
 */
export function jsonObjectWriter<T>() {
  return <const K extends readonly (keyof T & string)[]>(keys: EveryKey<T, K>): ((...fields: FieldsJson<T, K>) => Json<T>) => {
    const pieces = jsonObjectPieces<T>()<K>(keys);
    return (...fields) => {
      let out = '';
      for (let i = 0; i < pieces.length; i++) out += pieces[i]! + fields[i];
      return `${out}}` as Json<T>;
    };
  };
}

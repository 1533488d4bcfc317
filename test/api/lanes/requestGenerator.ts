// Generates requests for the differential test from the spec itself: every GET operation, every
// parameter with values inside and outside its schema (bounds, enums, patterns, list sizes),
// encodings (%XX, +), repeats, unknown and empty parameters, odd paths, HEAD, conditional and
// compressed requests. New parameters, enum values and routes are covered as the spec gains them.
// Undeclared parameters (ignored and named in X-Ignored-Parameters) come in every form: cache-
// busters, other operations' names, bare, bracketed, encoded, repeated, long, and more names than
// the header lists; plain requests carry plain ones too, which the lane answers.
import { createPrng, type Prng } from '../../../src/demo/prng.ts';
import { operationParameters, readOpenApiDocument, type OpenApiParameter, type Schema } from '../../../src/spec/readOpenApiDocument.ts';

export type GeneratedRequest = {
  method: 'GET' | 'HEAD';
  /** Raw request target: path and query exactly as sent. */
  url: string;
  headers: Record<string, string>;
  /** The operationId of the operation it was generated for. */
  operation: string;
};

/** The generator's randomness: the demo's seeded PRNG, with a coin toss. */
export type Random = Prng & { chance(p: number): boolean };

/** The same seed gives the same requests. */
export function createRandom(seed: number): Random {
  const prng = createPrng(seed);
  return { ...prng, chance: (p) => prng.next() < p };
}

type Operation = { id: string; path: string; params: OpenApiParameter[]; undeclared: string[] };

/**
 * The share of each operation's requests that are plain: every value drawn inside its schema,
 * nothing encoded, repeated or unknown, the path as the spec writes it. Those are the requests
 * the lane answers itself, so each operation reaches the lane's answer path in every run, whatever
 * the seed; the others probe the edges, where the lane must hand over to Express.
 */
const PLAIN_SHARE = 0.4;

/**
 * `count` requests for the spec's GET operations; `addresses` are indexed tokens to use.
 * Stratified: each operation gets an equal share of the requests (the first `count % n` one
 * more), PLAIN_SHARE of them plain, in an order shuffled by the seed.
 */
export function generateRequests(count: number, seed: number, addresses: readonly string[]): GeneratedRequest[] {
  const doc = readOpenApiDocument();
  const operations: Operation[] = Object.entries(doc.paths)
    .filter(([, item]) => item.get)
    .map(([path, item]) => ({ id: item.get!.operationId ?? path, path, params: operationParameters(doc, path, 'get'), undeclared: [] as string[] }));
  // Every operation's names are undeclared for the others (`limit` on /tokens/{contractAddress}).
  const allNames = [...new Set(operations.flatMap((o) => o.params.filter((p) => p.in === 'query').map((p) => p.name)))];
  for (const o of operations) o.undeclared = allNames.filter((n) => !o.params.some((p) => p.in === 'query' && p.name === n));
  const r = createRandom(seed);
  const slots: { operation: Operation; plain: number | undefined }[] = [];
  for (const [i, operation] of operations.entries()) {
    const quota = Math.floor(count / operations.length) + (i < count % operations.length ? 1 : 0);
    const plain = Math.round(quota * PLAIN_SHARE);
    for (let k = 0; k < quota; k++) slots.push({ operation, plain: k < plain ? k : undefined });
  }
  shuffle(r, slots);
  return slots.map(({ operation, plain }) => ({
    method: r.chance(0.2) ? 'HEAD' : 'GET',
    url: plain === undefined
      ? `${pathOf(r, operation, addresses)}${queryOf(r, operation, addresses)}`
      : `${plainPathOf(r, operation, addresses)}${plainQueryOf(r, operation, addresses, plain)}`,
    headers: headersOf(r),
    operation: operation.id,
  }));
}

function shuffle<T>(r: Random, items: T[]): void {
  for (let i = items.length - 1; i > 0; i--) {
    const j = r.int(0, i);
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
}

function headersOf(r: Random): Record<string, string> {
  const headers: Record<string, string> = {};
  if (r.chance(0.3)) headers['accept-encoding'] = r.pick(['gzip', 'gzip, deflate, br', 'identity', 'gzip;q=0', 'br']);
  if (r.chance(0.3)) headers.origin = 'https://dapp.example';
  if (r.chance(0.1)) headers['if-none-match'] = r.pick(['*', 'W/"nope"', '"x", W/"y"']);
  return headers;
}

function pathOf(r: Random, operation: Operation, addresses: readonly string[]): string {
  let path = operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = operation.params.find((p) => p.name === name && p.in === 'path');
    return param ? valueOf(r, param.schema, addresses, true) : 'x';
  });
  if (r.chance(0.04)) path = r.pick([`${path}/`, path.replace('/', '//'), path.toUpperCase(), `${path}/extra`, path.replace(/^\/(\w)/, (_, c: string) => `/%${c.charCodeAt(0).toString(16)}`)]);
  return path;
}

function queryOf(r: Random, operation: Operation, addresses: readonly string[]): string {
  const pairs: string[] = [];
  for (const p of operation.params.filter((x) => x.in === 'query')) {
    const include = p.required ? r.chance(0.97) : r.chance(0.4);
    if (!include) continue;
    let name = p.name;
    let value = valueOf(r, p.schema, addresses, false);
    const mutation = r.next();
    if (mutation < 0.02) value = encodeAll(value);
    else if (mutation < 0.03) name = encodeAll(name);
    else if (mutation < 0.04) value = `${value}+`;
    else if (mutation < 0.05) value = '';
    else if (mutation < 0.06) pairs.push(`${name}=${valueOf(r, p.schema, addresses, false)}`); // repeated
    else if (mutation < 0.065) {
      pairs.push(name); // no '='
      continue;
    } else if (mutation < 0.07) name = `${name}[a]`;
    pairs.push(`${name}=${value}`);
  }
  if (r.chance(0.03)) pairs.push(r.pick(['unknown=1', 'PAGE=1', 'x', '=1']));
  if (r.chance(0.15)) pairs.push(...undeclaredPairs(r, operation));
  if (r.chance(0.02)) pairs.push('');
  shuffle(r, pairs);
  if (pairs.length === 0) return r.chance(0.05) ? '?' : '';
  return `?${pairs.join('&')}`;
}

/** The path as the spec writes it, each parameter a value inside its schema. */
function plainPathOf(r: Random, operation: Operation, addresses: readonly string[]): string {
  return operation.path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const param = operation.params.find((p) => p.name === name && p.in === 'path');
    if (!param) throw new Error(`${operation.path}: no path parameter ${name}`);
    return plainValueOf(r, param.schema, addresses);
  });
}

/**
 * The required query parameters and some optional ones, each once with a value inside its
 * schema. The k-th plain request of an operation gives every second time exactly one optional
 * parameter, in turn (an operation may take one of several, as `/at` takes `time` or `block`),
 * otherwise each one by a coin toss.
 */
function plainQueryOf(r: Random, operation: Operation, addresses: readonly string[], k: number): string {
  const query = operation.params.filter((p) => p.in === 'query');
  const optional = query.filter((p) => !p.required);
  const alone = k % 2 === 0 && optional.length > 0 ? optional[(k / 2) % optional.length] : undefined;
  const pairs = query
    .filter((p) => p.required || (alone ? p === alone : r.chance(0.5)))
    .map((p) => `${p.name}=${plainValueOf(r, p.schema, addresses)}`);
  // Plain undeclared names (a cache-buster, another API's parameters): the lane answers without them.
  if (r.chance(0.2)) pairs.push(...r.pick([['_=1764131234567'], ['includePrice=true', 'query=usd'], ['nocache'], [`_=${r.int(0, 1e6)}`, 'v=2']]));
  shuffle(r, pairs);
  return pairs.length === 0 ? '' : `?${pairs.join('&')}`;
}

/** Undeclared parameters in every form the rule covers (spec: info.description's conventions). */
function undeclaredPairs(r: Random, operation: Operation): string[] {
  const other = operation.undeclared.length > 0 ? r.pick(operation.undeclared) : 'other';
  switch (r.int(0, 9)) {
    case 0: return [`_=${r.int(0, 1e9)}`];
    case 1: return ['includePrice=true', 'query=usd', `_=${r.int(0, 1e6)}`];
    case 2: return [`${other}=${r.pick(['1', 'x', '', '%20'])}`]; // a parameter of another operation
    case 3: return [r.pick(['x', 'flag', other])]; // without '='
    case 4: return [r.pick(['foo[a]=1', 'foo[]=2', 'a[b][c]=', '[x]=1'])]; // brackets on an undeclared name
    case 5: return [r.pick(['%5F=1', 'fo%6F=2', 'a+b=3', 'a%2Cb=4', '%C3%A9=5', '%zz=6', encodeAll(other) + '=1'])]; // encoded
    case 6: return ['_=1', '_=2', '_']; // repeated
    case 7: return Array.from({ length: r.int(9, 14) }, (_, i) => `p${i}=${i}`); // more than the header lists
    case 8: return [`${'n'.repeat(r.int(60, 90))}=1`, `%E2%82%AC${'e'.repeat(r.int(50, 70))}=1`]; // longer than an item
    default: return [`${r.pick(['Page', 'LIMIT', 'Addresses', 'utm_source'])}=1`]; // names match exactly
  }
}

const encodeAll = (text: string) => [...Buffer.from(text)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');

function address(r: Random, addresses: readonly string[]): string {
  const roll = r.next();
  if (roll < 0.8 && addresses.length > 0) {
    const a = r.pick(addresses);
    return r.chance(0.3) ? `0x${a.slice(2).toUpperCase()}` : a;
  }
  if (roll < 0.93) return `0x${Array.from({ length: 40 }, () => r.pick([...'0123456789abcdef'])).join('')}`;
  return r.pick(['0x123', `0X${'a'.repeat(40)}`, `0x${'g'.repeat(40)}`, `${'a'.repeat(40)}`, `0x${'a'.repeat(41)}`, '', 'null']);
}

/** An address that matches the pattern: mostly indexed tokens, in either case. */
function validAddress(r: Random, addresses: readonly string[]): string {
  const a = r.chance(0.85) && addresses.length > 0 ? r.pick(addresses) : `0x${Array.from({ length: 40 }, () => r.pick([...'0123456789abcdef'])).join('')}`;
  return r.chance(0.2) ? `0x${a.slice(2).toUpperCase()}` : a;
}

/** A value for a parameter's schema: mostly valid, sometimes just outside, sometimes malformed. */
function valueOf(r: Random, schema: Schema, addresses: readonly string[], inPath: boolean): string {
  const type = schema.type;
  if (type === 'integer') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
    const roll = r.next();
    if (roll < 0.8) return String(r.chance(0.7) ? r.int(min, Math.min(max, min + 60)) : r.int(min, max));
    if (roll < 0.9) return String(r.pick([min, max, min - 1, max + 1, -1, 0]));
    return r.pick(['01', '1.0', '1e1', '0x10', '%205', '5%20', '+5', '%35', 'ten', '9999999999999999', '-0', '%D9%A1']);
  }
  if (type === 'boolean') return r.chance(0.9) ? r.pick(['true', 'false']) : r.pick(['TRUE', '1', 'yes', 'False', 'null']);
  if (Array.isArray(schema.enum)) {
    const values = schema.enum as string[];
    if (r.chance(0.92)) return r.pick(values);
    const v = r.pick(values);
    return r.pick([v.toUpperCase(), `${v}x`, '%20', 'null', v.slice(1)]);
  }
  if (type === 'array') {
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : 10;
    const roll = r.next();
    const n = roll < 0.75 ? r.int(1, Math.min(max, 12)) : roll < 0.9 ? r.int(1, max) : r.pick([max, max + 1]);
    const items = Array.from({ length: n }, () => (r.chance(0.97) ? validAddress(r, addresses) : address(r, addresses)));
    if (r.chance(0.05) && items.length > 1) items.splice(1, 0, ''); // an empty item
    if (r.chance(0.05)) items.push(items[0]!); // a duplicate
    return items.join(r.chance(0.03) ? '%2C' : ',');
  }
  if (type === 'string' && schema.format === 'date-time') return timeOf(r);
  if (type === 'string' && typeof schema.pattern === 'string' && schema.pattern.includes('0-9a-fA-F')) {
    const a = address(r, addresses);
    return inPath && a === '' ? 'x' : a;
  }
  return r.pick(['x', 'abc', '%20', '']);
}

/** A value inside the parameter's schema, written as the lane reads it (no percent or plus encoding). */
function plainValueOf(r: Random, schema: Schema, addresses: readonly string[]): string {
  const type = schema.type;
  if (type === 'integer') {
    const min = typeof schema.minimum === 'number' ? schema.minimum : 0;
    const max = typeof schema.maximum === 'number' ? schema.maximum : 1_000_000;
    return String(r.chance(0.7) ? r.int(min, Math.min(max, min + 60)) : r.int(min, max));
  }
  if (type === 'boolean') return r.pick(['true', 'false']);
  if (Array.isArray(schema.enum)) return r.pick(schema.enum as string[]);
  if (type === 'array') {
    const max = typeof schema.maxItems === 'number' ? schema.maxItems : 10;
    return Array.from({ length: r.int(1, Math.min(max, 12)) }, () => validAddress(r, addresses)).join(',');
  }
  if (type === 'string' && schema.format === 'date-time') return plainTimeOf(r);
  if (type === 'string' && typeof schema.pattern === 'string' && schema.pattern.includes('0-9a-fA-F')) return validAddress(r, addresses);
  return r.pick(['x', 'abc', 'T1']);
}

/** The data the differential test seeds ends here: times are drawn around it. */
export const TIME_BASE = Date.parse('2026-11-21T12:00:00.000Z');

/** A whole second from three days before TIME_BASE to half a day after, in ISO 8601. */
const isoNearBase = (r: Random) => new Date(TIME_BASE + Math.round(r.range(-3, 0.5) * 86_400_000 / 1000) * 1000).toISOString();

/** A UTC time near TIME_BASE, with or without milliseconds. */
function plainTimeOf(r: Random): string {
  const iso = isoNearBase(r);
  return r.chance(0.7) ? iso.replace('.000Z', 'Z') : iso;
}

/** A UTC time near TIME_BASE, sometimes percent-encoded, sometimes malformed. */
function timeOf(r: Random): string {
  const iso = isoNearBase(r);
  const roll = r.next();
  if (roll < 0.55) return iso.replace('.000Z', 'Z');
  if (roll < 0.75) return iso;
  if (roll < 0.85) return iso.replace(/:/g, '%3A');
  return r.pick(['2026-11-21', '2026-11-21T10:00:00+02:00', '2026-11-21T10:00:00%2B02:00', '2026-02-30T00:00:00Z', '2026-11-21T24:00:00Z', '2026-11-21t10:00:00z', 'now', '']);
}

import { loadTokenChanges, type DataVersion, type Queryable, type TokenListQuery, type TokenRow } from '../../db/index.ts';
import { toToken } from '../toToken.ts';
import { sortBy, toSortRow, type SortRow } from './tokenOrder.ts';

type Entry = { row: SortRow; json: string };

export type TokenCatalogOptions = {
  db: Queryable;
  /** A request older than this since the last version check checks again (0: every request). */
  staleMs: number;
  /** Also check in the background every this many ms (so cached answers notice changes). */
  pollMs?: number;
  onError?: (error: unknown) => void;
  /** Rows per query when loading (default TOKEN_CHUNK_ROWS). */
  chunkRows?: number;
};

export type TokenCatalog = {
  /** The data version the catalogue holds, as a string for ETags and cache keys. */
  version(): string;
  /** Brings the catalogue up to date if its last check is older than `staleMs`. */
  refresh(force?: boolean): Promise<void>;
  /** A serialised page `{data, meta}` of the list endpoint. */
  page(query: TokenListQuery): Promise<string>;
  /** A serialised token, or undefined when it is not indexed. */
  token(address: string): Promise<string | undefined>;
  stop(): void;
};

/**
 * The token list held in memory by each API process: loaded from the shared database,
 * followed incrementally by data version, each token serialised once per change, each ordering
 * sorted once per change. Pages are slices, deep pages cost what the first one does, and 100
 * addresses are 100 map lookups; the database answers one small query per `staleMs`.
 */
export function createTokenCatalog(options: TokenCatalogOptions): TokenCatalog {
  const entries = new Map<string, Entry>();
  let sorted = new Map<string, Entry[]>();
  let state: DataVersion | undefined;
  let checkedAt = 0;
  let inFlight: Promise<void> | undefined;

  async function load(): Promise<void> {
    const changes = await loadTokenChanges(options.db, state, { chunkRows: options.chunkRows });
    if (changes.full) entries.clear();
    for (const row of changes.rows) entries.set(row.address, { row: toSortRow(row), json: JSON.stringify(toToken(row)) });
    if (changes.full || changes.rows.length > 0) sorted = new Map();
    state = { version: changes.version, generation: changes.generation };
  }

  async function refresh(force = false): Promise<void> {
    if (!force && state && Date.now() - checkedAt < options.staleMs) return;
    inFlight ??= load()
      .then(() => void (checkedAt = Date.now()))
      .finally(() => (inFlight = undefined));
    await inFlight;
  }

  const timer = options.pollMs ? setInterval(() => refresh(true).catch((e: unknown) => options.onError?.(e)), options.pollMs) : undefined;
  timer?.unref();

  function ordered(query: TokenListQuery): Entry[] {
    const key = `${query.order}:${query.sort}:${query.isSecure ?? ''}`;
    let list = sorted.get(key);
    if (!list) {
      const all = [...entries.values()];
      const filtered = query.isSecure === undefined ? all : all.filter((e) => e.row.isSecure === query.isSecure);
      list = sortBy(filtered, query.order, query.sort);
      sorted.set(key, list);
    }
    return list;
  }

  return {
    version: () => (state ? `${state.generation}.${state.version}` : ''),
    refresh,
    async page(query) {
      await refresh();
      let list: Entry[];
      if (query.addresses) {
        const picked = query.addresses.map((a) => entries.get(a)).filter((e): e is Entry => e !== undefined);
        const filtered = query.isSecure === undefined ? picked : picked.filter((e) => e.row.isSecure === query.isSecure);
        list = sortBy(filtered, query.order, query.sort);
      } else {
        list = ordered(query);
      }
      const start = (query.page - 1) * query.limit;
      const data = list.slice(start, start + query.limit).map((e) => e.json);
      const meta = { page: query.page, limit: query.limit, totalItemsCount: list.length, pagesCount: Math.ceil(list.length / query.limit) };
      return `{"data":[${data.join(',')}],"meta":${JSON.stringify(meta)}}`;
    },
    async token(address) {
      await refresh();
      return entries.get(address.toLowerCase())?.json;
    },
    stop: () => clearInterval(timer),
  };
}

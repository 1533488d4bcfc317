import { createHash } from 'node:crypto';
import { toJson, type Json, type JsonBytes, type TaggedJson } from '../json.ts';
import { toToken } from './toToken.ts';
import { loadTokenChanges, type DataVersion, type PoolRow, type Queryable, type TokenRow } from '../../db/index.ts';
import { createPoolIndex, type PoolIndex } from './createPoolIndex.ts';
import type { OrderColumn, PageMeta, PoolPage, SortDirection, Token, TokenListQuery, TokenPage } from '../types.ts';
import { createTextSlab, type TextSlab } from './createTextSlab.ts';
import { pageAnswer, type PageEntry, type PageTexts } from './pageAnswer.ts';
import { createSearchRanking } from './rankSearchMatches.ts';
import { createSearchIndex, type LoadableSearchIndex } from './createSearchIndex.ts';
import { createHeldDataGate } from '../heldDataGate.ts';
import { COMPLETE_HISTORY, historyView, windowsKey, type HistoryView } from '../historyView.ts';
import { createApproxKeys, entryComparator, filterKeepsOrder, reversedOrder, sameSortRow, sortBy, toSortRow, type ApproxKeys, type SortRow } from './tokenOrder.ts';
import { createSortedBlocks, type SortedBlocks } from './createSortedBlocks.ts';

/**
 * A token: what orderings read, its slot (in the approximate keys and the text slab), its JSON's digest, and
 * where in that JSON the `null` of `completeness.historyFrom` is (bytes before its end).
 */
type Entry = PageEntry & { row: SortRow; slot: number; seen: number; historyTail: number };

// Every token's JSON is stored with this, and answered with the coverage's historyFrom spliced in.
const HISTORY_FROM_KEY = '"historyFrom":';
const STORED_HISTORY_FROM = `${HISTORY_FROM_KEY}null`;
const NULL_BYTES = 4;
type Change = { before: Entry | undefined; after: Entry };
type Ordering = { order: OrderColumn; sort: SortDirection; isSecure: boolean | undefined; list: SortedBlocks<Entry> };
const orderingKey = (order: OrderColumn, sort: SortDirection, isSecure: boolean | undefined) => `${order}:${sort}:${isSecure ?? ''}`;

/**
 * Above this share of changed tokens, or this many, an ordering is dropped and made again when
 * next asked for; below it the changed tokens are moved to their new places: an indexer batch
 * touches a few tokens, and making every ordering again per update sits on the request path. A
 * move costs a few µs in any list (createSortedBlocks), a sort ~0.4 µs a token (radix) and a
 * derived ordering less: past about a tenth of the list, or thousands of changes, making it
 * again is cheaper (docs/performance.md, the live writer at 100,000 tokens).
 */
const RESORT_SHARE = 1 / 16;
const RESORT_CHANGES = 4096;

/**
 * Tokens prepared and applied between two turns of the event loop: building a token's JSON is the
 * costly part of a load, and a chunk of rows at once held every request for the whole chunk
 * (a full load of 100,000 tokens is seconds of it; requests are answered between slices).
 */
const APPLY_SLICE = 250;

export type TokenCatalogOptions = {
  db: Queryable;
  /** A request older than this since the last version check checks again (0: every request). */
  staleMs: number;
  /** Also check in the background every this many ms (so cached answers notice changes). */
  pollMs?: number;
  /**
   * The longest a request waits for a due check before the tokens held answer, marked stale
   * (default: as long as the check takes, which the database's timeouts bound).
   */
  waitMs?: number;
  /** Called when a check fails after the last one succeeded (once per outage). */
  onError?: (error: unknown) => void;
  /** Rows per query when loading (default TOKEN_CHUNK_ROWS). */
  chunkRows?: number;
  /** Waited for between two slices of a search index build (default: one turn of the event loop). */
  searchPause?: () => Promise<void>;
};

export type TokenCatalog = {
  /**
   * The data version the catalogue holds, as a string for ETags and cache keys; '' while a load
   * is applied chunk by chunk (the tokens held are then between two versions).
   */
  version(): string;
  /** The last data version the catalogue held whole: version() except while a load is applied. */
  heldVersion(): string;
  /** True when the last version check is older than `staleMs`: the next read checks again. */
  due(): boolean;
  /**
   * `force`: checks now and rejects when the check fails. Otherwise what a request does: checks
   * when due, waits for it at most `waitMs`, and answers from the tokens held when it fails or
   * is late (see stale()); rejects with UnavailableError (503) only when nothing is held.
   */
  refresh(force?: boolean): Promise<void>;
  /** True when the tokens held could not be confirmed current: the last check failed or is late. */
  stale(): boolean;
  /** A serialised page `{data, meta}` of the list endpoint, as UTF-8 JSON with its ETag. */
  page(query: TokenListQuery): Promise<TaggedJson<TokenPage>>;
  /** A serialised token as UTF-8 JSON, or undefined when it is not indexed. */
  token(address: string): Promise<JsonBytes<Token> | undefined>;
  /** A serialised page `{data, meta}` of a token's pools (liquidity descending), or undefined when it is not indexed. */
  pools(address: string, page: number, limit: number): Promise<Json<PoolPage> | undefined>;
  stop(): void;
};

/**
 * The token list held in memory by each API process: loaded from the shared database,
 * followed incrementally by data version, each token serialised once per change (as UTF-8 bytes
 * in a slab), each ordering sorted when first asked for and then kept in order as tokens
 * change. Pages are slices copied together, deep pages cost what the first one does, and 100
 * addresses are 100 map lookups; the database answers one small query per `staleMs`.
 */
export function createTokenCatalog(options: TokenCatalogOptions): TokenCatalog {
  const entries = new Map<string, Entry>();
  const searchPause = options.searchPause ?? (() => new Promise<void>((resolve) => setImmediate(resolve)));
  let pools = createPoolIndex();
  const bySlot: Entry[] = [];
  const texts = createTextSlab<Entry, Token>();
  const keys = createApproxKeys();
  let sorted = new Map<string, Ordering>();
  // Built when first searched after a full load (in slices: searchReady), then kept up to date token by token.
  let search: LoadableSearchIndex | undefined;
  // The build in slices under way, the slots set meanwhile (applied to it at its end), and how many
  // times the index was dropped (a build that saw a drop is thrown away).
  let searchBuild: Promise<void> | undefined;
  const setDuringBuild = new Set<number>();
  let searchDrops = 0;
  const ranking = createSearchRanking<Entry>();
  let state: DataVersion | undefined;
  /** `state` as the text version() and heldVersion() answer, made once per load (they are read per request). */
  let stateText = '';
  // The history view every held token's JSON was built with: when the coverage gives other windows, every token is built again.
  let view: HistoryView = COMPLETE_HISTORY;
  /**
   * `completeness.historyFrom` as JSON bytes, spliced into every token answered (undefined: null, as
   * stored). It moves with every history range a head-first indexer fills, so it is not built into
   * the tokens' JSON: a filled range changes this one value, not every token.
   */
  let historyFrom: Buffer | undefined;
  const tokenTexts: PageTexts<Entry, Token> = {
    length: (e) => texts.length(e) + (historyFrom ? historyFrom.length - NULL_BYTES : 0),
    copy: (e, target, at) => (historyFrom ? texts.copySpliced(e, { at: texts.length(e) - e.historyTail, drop: NULL_BYTES, insert: historyFrom }, target, at) : texts.copy(e, target, at)),
    tag: '', // the historyFrom answered, as text (set with it)
  };
  const gate = createHeldDataGate(load, () => state !== undefined, options.onError);
  const waitMs = options.waitMs ?? Infinity;

  /**
   * Set while a load's rows are applied chunk by chunk (and after a load that failed half way):
   * the tokens held are then between two data versions, so version() names none and nothing
   * answered meanwhile is cached under one.
   */
  let partial = false;
  /**
   * Moves when a token's sort row changes or tokens are removed (the search ranking is prepared
   * per value); a token whose JSON alone changed leaves it.
   */
  let rankingVersion = 0;
  /** Slots of removed tokens, given to new ones first; and the next slot never used. */
  const freeSlots: number[] = [];
  let slotCount = 0;
  /** Numbers full loads: an entry a full load read carries its number (`seen`), the others are gone. */
  let fullLoads = 0;

  /**
   * Applies a load chunk by chunk, each in slices of APPLY_SLICE tokens, so that it holds at most a
   * chunk of rows besides the catalogue however many tokens changed, full loads included (a second
   * catalogue built beside the first doubled the memory at every full load: after a reorg, or when
   * the windows' coverage moved). Each slice's entries are prepared before any is touched (what can
   * throw: a freed span still referenced would let a page copy another token's bytes), then applied
   * (see applyChanged); a full load, at its end, removes the tokens it did not read. A load that
   * fails half way leaves the slices applied and the version where it was, so the next load reads
   * them again (applying a row twice changes nothing).
   */
  async function load(): Promise<void> {
    let nextPools: PoolIndex | undefined;
    let nextView = view;
    let full: number | undefined; // this full load's number
    // How many tokens this load changed so far (orderings resort past a share of them).
    let changedSoFar = 0;
    const changes = await loadTokenChanges(options.db, state, {
      chunkRows: options.chunkRows,
      fullWhen: (coverage) => windowsKey(historyView(coverage)) !== windowsKey(view),
      sink: {
        begin(c) {
          setHistoryFrom(historyView(c.coverage).historyFrom);
          if (c.full) {
            full = ++fullLoads;
            nextView = historyView(c.coverage);
            nextPools = createPoolIndex(c.pools, nextView);
          } else if (c.pools.length > 0) nextPools = pools.with(c.pools);
        },
        async rows(chunk) {
          for (let i = 0; i < chunk.length; i += APPLY_SLICE) {
            if (i > 0) await new Promise((resolve) => setImmediate(resolve)); // requests first
            const slice = chunk.slice(i, i + APPLY_SLICE);
            const prepared = slice.map((row) => prepare(row, entries.get(row.address)?.slot ?? -1, nextPools ?? pools, nextView));
            switchTo(nextPools, nextView, full !== undefined);
            nextPools = undefined;
            changedSoFar = applyChanged(prepared, changedSoFar, full);
          }
        },
      },
    });
    switchTo(nextPools, nextView, false);
    if (full !== undefined) removeUnseen(full);
    state = { version: changes.version, generation: changes.generation };
    stateText = `${state.generation}.${state.version}`;
    partial = false;
  }

  /** Sets the historyFrom answered; a new one names no version until the load that brought it is whole. */
  function setHistoryFrom(from: string | null): void {
    const next = from === null ? undefined : Buffer.from(JSON.stringify(from), 'latin1');
    const same = next === undefined ? historyFrom === undefined : historyFrom !== undefined && next.equals(historyFrom);
    if (same) return;
    historyFrom = next;
    tokenTexts.tag = next?.toString('latin1') ?? '';
    partial = true;
  }

  /** Puts a load's pools and view in place, before its first rows are applied (or at its end). */
  function switchTo(nextPools: PoolIndex | undefined, nextView: HistoryView, starting: boolean): void {
    if (nextPools) pools = nextPools;
    view = nextView;
    if (nextPools || starting) partial = true;
  }

  /**
   * Applies one chunk's prepared entries; returns how many tokens the load changed so far (in the
   * orderings). In a full load (`full`: its number) every entry read is marked as read. A token whose
   * sort row is unchanged keeps its entry, with its new JSON if that changed, and its places in the
   * orderings: a full load for new windows moves no token.
   */
  function applyChanged(prepared: readonly { entry: Entry; json: Json<Token> }[], changedBefore: number, full: number | undefined): number {
    partial = true;
    const changed: Change[] = [];
    for (const { entry, json } of prepared) {
      const before = entries.get(entry.row.address);
      if (full !== undefined) entry.seen = full;
      if (before && sameSortRow(before.row, entry.row)) {
        if (full !== undefined) before.seen = full;
        if (before.digestHigh === entry.digestHigh && before.digestLow === entry.digestLow) continue;
        texts.put(before, json);
        before.digestHigh = entry.digestHigh;
        before.digestLow = entry.digestLow;
        before.historyTail = entry.historyTail;
        continue;
      }
      if (before) texts.free(before);
      if (entry.slot < 0) entry.slot = before?.slot ?? freeSlots.pop() ?? slotCount++;
      put({ entries, bySlot, texts, keys }, entry, json);
      search?.set(entry.slot, entry.row);
      if (searchBuild) setDuringBuild.add(entry.slot);
      changed.push({ before, after: entry });
    }
    if (changed.length > 0) {
      rankingVersion++;
      moveChanged(sorted, changed, changedBefore);
    }
    return changedBefore + changed.length;
  }

  /**
   * Removes the tokens full load `full` did not read (rows were deleted: a reorg). Rare, so the
   * orderings and the search index are dropped and rebuilt when next asked for; a removed slot is
   * reached from nowhere once they are (bySlot is read through the search index only).
   */
  function removeUnseen(full: number): void {
    const gone = [...entries.values()].filter((e) => e.seen !== full);
    if (gone.length === 0) return;
    partial = true;
    rankingVersion++;
    for (const entry of gone) {
      texts.free(entry);
      entries.delete(entry.row.address);
      freeSlots.push(entry.slot);
    }
    sorted = new Map();
    search = undefined;
    searchDrops++;
  }

  const due = () => gate.due(options.staleMs);

  async function refresh(force = false): Promise<void> {
    if (force) return gate.start();
    return gate.beforeRequest(options.staleMs, waitMs, 'token list');
  }

  // Failures are reported by the gate (once per outage).
  const timer = options.pollMs ? setInterval(() => gate.start().catch(() => {}), options.pollMs) : undefined;
  timer?.unref();

  function ordered(order: OrderColumn, sort: SortDirection, isSecure: boolean | undefined): SortedBlocks<Entry> {
    let ordering = sorted.get(orderingKey(order, sort, isSecure));
    if (!ordering) {
      const list = derived(order, sort, isSecure) ?? sortBy(isSecure === undefined ? [...entries.values()] : [...entries.values()].filter((e) => e.row.isSecure === isSecure), order, sort, keys);
      ordering = { order, sort, isSecure, list: createSortedBlocks(list, entryComparator(order, sort)) };
      sorted.set(orderingKey(order, sort, isSecure), ordering);
    }
    return ordering.list;
  }

  /**
   * An ordering made from one already sorted, in linear time: the other direction reversed, or
   * the unfiltered one filtered by isSecure (at 100,000 tokens a sort took 60–450 ms, a burst of
   * new orderings seconds; each column is sorted at most once this way).
   */
  function derived(order: OrderColumn, sort: SortDirection, isSecure: boolean | undefined): Entry[] | undefined {
    const other = sort === 'asc' ? 'desc' : 'asc';
    const flipped = sorted.get(orderingKey(order, other, isSecure));
    if (flipped) return reversedOrder(flipped.list.toArray(), order, keys);
    if (isSecure === undefined) return undefined;
    const secure = (e: Entry) => e.row.isSecure === isSecure;
    const all = sorted.get(orderingKey(order, sort, undefined))?.list.toArray() ?? reversedOrderOf(orderingKey(order, other, undefined), order);
    return all && filterKeepsOrder(all, order, keys) ? all.filter(secure) : undefined;
  }

  function reversedOrderOf(key: string, order: OrderColumn): Entry[] | undefined {
    const list = sorted.get(key)?.list;
    return list && reversedOrder(list.toArray(), order, keys);
  }

  const searchKeys = (e: Entry) => ({ slot: e.slot, address: e.row.address, symbol: e.row.symbol, name: e.row.name });

  /** The search index (page() awaits searchReady first; built at once here only if it was dropped since). */
  function searchIndex(): LoadableSearchIndex {
    if (!search) {
      search = createSearchIndex();
      search.load(Array.from(entries.values(), searchKeys));
    }
    return search;
  }

  /**
   * Resolves once the search index exists, building it in slices when it does not: at 100,000
   * tokens a build is a second or more of sorting, and in one piece it held every request of the
   * process, not only the searches that wait for it.
   */
  async function searchReady(): Promise<void> {
    while (!search) {
      searchBuild ??= buildSearch();
      await searchBuild;
    }
  }

  async function buildSearch(): Promise<void> {
    const drops = searchDrops;
    const index = createSearchIndex();
    try {
      await index.loadInSlices(Array.from(entries.values(), searchKeys), searchPause);
      if (drops !== searchDrops) return; // tokens were removed meanwhile: built again
      for (const slot of setDuringBuild) index.set(slot, bySlot[slot]!.row);
      search = index;
    } finally {
      searchBuild = undefined;
      setDuringBuild.clear();
    }
  }

  /** How many tokens a query selects, and those of its page, in its order. */
  function select(query: TokenListQuery): { total: number; page: Entry[] } {
    const order = query.order ?? 'fdv';
    const sort = query.sort ?? 'desc';
    const start = (query.page - 1) * query.limit;
    const end = start + query.limit;
    const paged = (list: Pick<Entry[], 'length' | 'slice'>) => ({ total: list.length, page: list.slice(start, end) });
    if (!query.addresses && query.search === undefined) return paged(ordered(order, sort, query.isSecure));
    const wanted = query.addresses && query.search !== undefined ? new Set(query.addresses) : undefined;
    const keep = query.isSecure === undefined && !wanted ? undefined : (e: Entry) => (query.isSecure === undefined || e.row.isSecure === query.isSecure) && (!wanted || wanted.has(e.row.address));
    if (query.search !== undefined) {
      ranking.prepare(rankingVersion, () => ordered('liquidity', 'desc', undefined).toArray(), searchIndex());
      if (query.order === undefined && query.sort === undefined) return ranking.rank(searchIndex(), query.search, bySlot, keep, start, end);
      return paged(sortBy(ranking.matches(searchIndex(), query.search, bySlot, keep), order, sort, keys));
    }
    const picked = query.addresses!.map((a) => entries.get(a)).filter((e): e is Entry => e !== undefined && (!keep || keep(e)));
    return paged(sortBy(picked, order, sort, keys));
  }

  return {
    version: () => (partial ? '' : stateText),
    heldVersion: () => stateText,
    due,
    refresh,
    stale: () => gate.stale(waitMs),
    async page(query) {
      await refresh();
      if (query.search !== undefined) await searchReady();
      const { total, page } = select(query);
      const meta = toJson<PageMeta>({ page: query.page, limit: query.limit, totalItemsCount: total, pagesCount: Math.ceil(total / query.limit) });
      return pageAnswer(tokenTexts, page, meta);
    },
    async token(address) {
      await refresh();
      const entry = entries.get(address.toLowerCase());
      if (!entry || !historyFrom) return entry && texts.bytes(entry);
      const bytes = Buffer.allocUnsafe(tokenTexts.length(entry));
      // allocUnsafe: a short copy would send whatever the memory held before
      if (tokenTexts.copy(entry, bytes, 0) !== bytes.length) throw new Error('token answer shorter than its length');
      return bytes as JsonBytes<Token>; // the stored JSON with a JSON string in place of null
    },
    async pools(address, page, limit) {
      await refresh();
      const key = address.toLowerCase();
      return entries.has(key) ? pools.page(key, page, limit) : undefined;
    },
    stop() {
      clearInterval(timer);
      gate.stop();
    },
  };
}

const sourceOf = (row: TokenRow, pools: PoolIndex): PoolRow | undefined => (row.priceSource === null ? undefined : pools.get(row.priceSource));

/**
 * A token's entry and JSON (with historyFrom null, spliced when answered), computed before
 * anything is changed (this is what can throw).
 */
function prepare(row: TokenRow, slot: number, pools: PoolIndex, view: HistoryView): { entry: Entry; json: Json<Token> } {
  const json = toJson(toToken(row, sourceOf(row, pools), { windows: view.windows, historyFrom: null }));
  // Last: only completeness's other fields and two timestamps follow it (ASCII: bytes = characters).
  const at = json.lastIndexOf(STORED_HISTORY_FROM);
  if (at < 0) throw new Error(`token ${row.checksumAddress}: its JSON has no ${STORED_HISTORY_FROM}`);
  const digest = createHash('sha1').update(json).digest();
  const entry: Entry = {
    row: toSortRow(row),
    slot,
    seen: 0,
    historyTail: json.length - at - HISTORY_FROM_KEY.length,
    digestHigh: digest.readInt32LE(0),
    digestLow: digest.readInt32LE(4),
  };
  return { entry, json };
}

function put(into: { entries: Map<string, Entry>; bySlot: Entry[]; texts: TextSlab<Entry, Token>; keys: ApproxKeys }, entry: Entry, json: Json<Token>): void {
  into.texts.put(entry, json);
  into.keys.set(entry.slot, entry.row);
  into.entries.set(entry.row.address, entry);
  into.bySlot[entry.slot] = entry;
}

/**
 * Moves the changed tokens within the orderings already sorted: each old entry is found by its
 * old keys and taken out, the new one put where it now belongs (a few binary searches per
 * change); an ordering with too many changes in one load (`changedBefore` counts those of its
 * earlier chunks) is dropped, to be sorted again when asked for.
 */
function moveChanged(sorted: Map<string, Ordering>, changed: readonly Change[], changedBefore: number): void {
  const belongs = (o: Ordering, e: Entry | undefined): e is Entry => e !== undefined && (o.isSecure === undefined || e.row.isSecure === o.isSecure);
  for (const [key, o] of sorted) {
    if (changedBefore + changed.length > Math.min(o.list.length * RESORT_SHARE, RESORT_CHANGES)) {
      sorted.delete(key);
      continue;
    }
    for (const { before, after } of changed) {
      if (belongs(o, before) && !o.list.remove(before)) {
        sorted.delete(key); // not where its keys say: never expected, but then sort again
        break;
      }
      if (belongs(o, after)) o.list.insert(after);
    }
  }
}

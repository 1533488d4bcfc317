// SQL reads of the stored data that production no longer runs (the API answers from the read
// model in memory): tests compare the read model and the indexer's writes with them.
export { listTokens, type TokenListQuery, type TokenFilter } from './listTokens.ts';
export { getToken } from './getToken.ts';
export { orderColumns, type OrderColumn, type SortDirection } from './orderColumns.ts';
export { getPriceHistories, type PricePointRow } from './getPriceHistories.ts';
export { recomputePriceWindows, windowSpans, type PriceWindowName, type PriceWindowRow } from './priceWindows.ts';

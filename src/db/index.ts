export type { Database, DatabaseSession, Queryable, SqlParam } from './Database.ts';
export { asDatabaseFault, isDatabaseFault } from './asDatabaseFault.ts';
export { createDatabase, type DatabaseOptions } from './createDatabase.ts';
export { migrate, migrationsApplied, listMigrations } from './migrate.ts';
export { bumpDataVersion, bumpDataGeneration, bumpHistoryGeneration, readDataVersion, readDataState, type DataVersion, type DataCoverage } from './bumpDataVersion.ts';
export { loadTokenChanges, type LoadSink, type TokenChanges } from './tokens/loadTokenChanges.ts';
export type { TokenRow } from './tokens/TokenRow.ts';
export { upsertTokens, type TokenWrite } from './tokens/upsertTokens.ts';
export { loadTokenTrust, updateTokenTrust, trustKey, type TokenTrustWrite } from './tokens/tokenTrust.ts';
export type { PoolRow } from './pools/PoolRow.ts';
export { upsertPools, type PoolWrite } from './pools/upsertPools.ts';
export { appendPricePoints, type PricePointWrite } from './prices/appendPricePoints.ts';
export {
  loadPriceChanges,
  loadPriceHistoriesAfter,
  loadPriceHistoriesOf,
  type LoadPriceChangesOptions,
  type PriceChanges,
  type PriceChangeSink,
  type PricePointChange,
  type PriceTokenRow,
} from './prices/loadPriceChanges.ts';
export { prunePricePoints, PRICE_POINTS_KEEP_MS, type PrunePricePointsOptions } from './prices/prunePricePoints.ts';
export { recordSwaps, type SwapWrite } from './swaps/recordSwaps.ts';
export { refreshSwapCounts } from './swaps/refreshSwapCounts.ts';
export { shiftSwapCounts, type SwapWindowShift } from './swaps/shiftSwapCounts.ts';
export { rollupCandles } from './candles/rollupCandles.ts';
export { prependCandles } from './candles/prependCandles.ts';
export { rollbackCandles } from './candles/rollbackCandles.ts';
export { markCandlesPending, rollupPendingCandles, type CandlesPending } from './candles/pendingCandles.ts';
export { loadCandles, loadHeadTime, type CandleRead, type CandleRow } from './candles/loadCandles.ts';
export { bucketOf, type CandlePriceInput, type CandleSwapInput } from './candles/candleTypes.ts';
export { loadPriceAt, PRICE_CHANGES_HORIZON, type PriceAtRead } from './prices/loadPriceAt.ts';
export { applyRetention, type RetentionResult } from './retention/applyRetention.ts';
export { pruneSwaps, SWAPS_HORIZON } from './retention/pruneSwaps.ts';
export { prunePriceChanges } from './retention/prunePriceChanges.ts';
export { pruneCandles, candlesHorizon } from './retention/pruneCandles.ts';
export { readHorizon, readHorizons, advanceHorizon, type Horizon, type PruneOptions } from './retention/horizons.ts';
export { loadContractChecks, saveContractChecks, type ContractCheckRow } from './contractChecks/contractChecks.ts';
export { recentSwaps, tokensWithSwaps, type RecentSwap } from './contractChecks/recentSwaps.ts';
export { openDatabaseRetrying, type RetryingDatabase } from './openDatabaseRetrying.ts';

// Storage of the chain indexer's own state (migration 002_indexer.sql).
export { readCheckpoint, writeCheckpoint, writeHistoryWindow, deleteCheckpoint, clearEdgesFixedAt, type Checkpoint, type CheckpointWithHistory, type HistoryWindow } from './checkpoint.ts';
export { saveBlocks, listStoredBlocks, type StoredBlock } from './blocks.ts';
export { loadIndexerTokens, saveIndexerTokens, type IndexerToken } from './tokens.ts';
export {
  loadPools, savePools, savePoolStates, prunePoolStates, savePositionChanges, dropProvisionalStates, loadLiquidityNet,
  type StoredPool, type PoolState, type PoolKind, type PoolStateWrite, type PositionChange,
} from './pools.ts';
export { savePriceChanges, loadPricesAt, loadPriceValueTimes, loadTokensChangedIn, deleteCarriedPriceChanges, type PriceChange } from './priceChanges.ts';
export { saveFeedAnswers, loadLatestFeedAnswer, type FeedAnswerWrite } from './feedAnswers.ts';
export { rollbackAbove } from './rollbackAbove.ts';
export { markInexactBuckets, loadInexactBuckets, applyExactTimes, type RetimedPriceChange } from './inexactBuckets.ts';
export { createWriterLock, WriterFencedError, type WriterLock, type WriterLockOptions } from './writerLock.ts';
export { autovacuumRuns, vacuumTables, CHURNED_TABLES } from './vacuumTables.ts';

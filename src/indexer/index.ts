export { createIndexer, type Indexer, type IndexerOptions, type IndexerStatus, type SyncResult } from './createIndexer.ts';
export { loadTokenList, TokenListError, type TokenListEntry } from './loadTokenList.ts';
export { ReorgDetectedError, ChainMismatchError } from './errors.ts';
export type { IndexerLogger } from './IndexerContext.ts';
export type { BatchResult } from './indexBatch.ts';
export type { RollbackResult } from './rollbackToAncestor.ts';
export { measureThroughput, type ThroughputReport } from './measureThroughput.ts';
export { factoryFamilies } from './families/factoryFamilies.ts';

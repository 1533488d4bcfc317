// Plain shapes the indexer reads from a node; numbers are JS numbers for block numbers and indexes.

export type BlockHeader = { number: number; hash: string; parentHash: string; timestamp: number };

export type RawLog = {
  address: string;
  topics: string[];
  data: string;
  blockNumber: number;
  blockHash: string;
  transactionHash: string;
  logIndex: number;
  removed?: boolean;
  /** Unix seconds of the log's block, where the node adds the field to logs (not every node does). */
  blockTimestamp?: number;
};

export type LogFilter = {
  fromBlock: number;
  toBlock: number;
  address?: string | string[];
  /** topics[0] may be a list of alternatives. */
  topics?: (string | string[] | null)[];
};

export type BlockTag = number | 'latest';

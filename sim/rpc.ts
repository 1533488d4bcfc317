// The JSON-RPC methods of the simulated node: what the indexer, the contract checks, the supply
// reads and POST /rpc ask of a node, answered from the chain model. `sim_mine` and `sim_reorg`
// drive the chain (as Anvil's evm_mine does).
import { Revert, call, codeOf, storageAt } from './calls.ts';
import { SimChain, type Block } from './chain.ts';
import type { SimLog } from './blockGen.ts';

export const CHAIN_ID = 59144;

export class RpcError extends Error {
  constructor(readonly code: number, message: string, readonly data?: unknown) {
    super(message);
  }
}

type Params = unknown[];
const hex = (n: number | bigint) => '0x' + n.toString(16);
const EMPTY_ROOT = '0x56e81f171bcc55a6ff8345e692c0f86e5b48e01b996cadc001622fb5e363b421';
const BLOOM = '0x' + '0'.repeat(512);

export type LogOptions = { blockTimestamp: boolean };

export function createMethods(chain: SimChain, options: LogOptions = { blockTimestamp: true }) {
  const blockNumberOf = (tag: unknown): number => {
    if (tag === undefined || tag === 'latest' || tag === 'safe' || tag === 'finalized' || tag === 'pending') return chain.head;
    if (tag === 'earliest') return 0;
    if (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag)) return Number(BigInt(tag));
    if (typeof tag === 'object' && tag !== null && 'blockNumber' in tag) return blockNumberOf((tag as { blockNumber: unknown }).blockNumber);
    if (typeof tag === 'object' && tag !== null && 'blockHash' in tag) return blockOfHash(String((tag as { blockHash: unknown }).blockHash))?.number ?? -1;
    throw new RpcError(-32602, `invalid block tag ${JSON.stringify(tag)}`);
  };
  const blockOfHash = (hash: string): Block | null => {
    if (typeof hash !== 'string' || hash.length !== 66) return null;
    const block = chain.block(SimChain.numberOfHash(hash.toLowerCase()));
    return block && block.hash === hash.toLowerCase() ? block : null;
  };
  /** A state read at a block the node has: above the head is an error, as on a real node. */
  const stateBlock = (tag: unknown) => {
    const n = blockNumberOf(tag);
    if (n < 0 || n > chain.head) throw new RpcError(-32000, 'header not found');
    return n;
  };

  const txObject = (block: Block, index: number) => {
    const tx = block.txs[index]!;
    return {
      blockHash: block.hash, blockNumber: hex(block.number), from: tx.from, gas: hex(300_000), gasPrice: hex(50_000_000), maxFeePerGas: hex(100_000_000),
      maxPriorityFeePerGas: hex(1_000_000), hash: block.txHashes[index]!, input: tx.input, nonce: hex(index), to: tx.to, transactionIndex: hex(index),
      value: '0x0', type: '0x2', accessList: [], chainId: hex(CHAIN_ID), v: '0x0', yParity: '0x0',
      r: '0x' + block.txHashes[index]!.slice(2, 66), s: '0x' + block.hash.slice(2, 66),
    };
  };

  const blockObject = (block: Block, full: boolean) => ({
    number: hex(block.number), hash: block.hash, parentHash: block.parentHash, timestamp: hex(block.timestamp), nonce: '0x0000000000000000',
    sha3Uncles: '0x1dcc4de8dec75d7aab85b567b6ccd41ad312451b948a7413f0a142fd40d49347', logsBloom: BLOOM, transactionsRoot: EMPTY_ROOT,
    stateRoot: EMPTY_ROOT, receiptsRoot: EMPTY_ROOT, miner: '0x0000000000000000000000000000000000000000', difficulty: '0x2', totalDifficulty: hex(block.number * 2 + 1),
    extraData: '0x', size: hex(1000 + block.txs.length * 200), gasLimit: hex(2_000_000_000), gasUsed: hex(block.txs.length * 150_000),
    baseFeePerGas: '0x7', mixHash: '0x' + '0'.repeat(64), uncles: [],
    transactions: full ? block.txs.map((_, i) => txObject(block, i)) : block.txHashes,
  });

  const logObject = (block: Block, txIndex: number, log: SimLog, logIndex: number) => {
    const out: Record<string, unknown> = {
      address: log.address, topics: log.topics, data: log.data, blockNumber: hex(block.number), blockHash: block.hash,
      transactionHash: block.txHashes[txIndex]!, transactionIndex: hex(txIndex), logIndex: hex(logIndex), removed: false,
    };
    if (options.blockTimestamp) out.blockTimestamp = hex(block.timestamp);
    return out;
  };

  function receipt(block: Block, index: number) {
    let logIndex = 0;
    for (let i = 0; i < index; i++) logIndex += block.txs[i]!.logs.length;
    const tx = block.txs[index]!;
    return {
      transactionHash: block.txHashes[index]!, transactionIndex: hex(index), blockHash: block.hash, blockNumber: hex(block.number), from: tx.from, to: tx.to,
      cumulativeGasUsed: hex((index + 1) * 150_000), gasUsed: hex(150_000), effectiveGasPrice: hex(50_000_000), contractAddress: null,
      logs: tx.logs.map((l, k) => logObject(block, index, l, logIndex + k)), logsBloom: BLOOM, status: '0x1', type: '0x2',
    };
  }

  type Filter = { fromBlock?: string; toBlock?: string; address?: string | string[]; topics?: (string | string[] | null)[]; blockHash?: string };

  /** Each log of a filter, in order; stops once more than `limit` were found (the caller refuses). Returns the count. */
  function eachLog(filter: Filter, limit: number, emit: (block: Block, txIndex: number, log: SimLog, logIndex: number) => void): number {
    let from: number;
    let to: number;
    if (filter.blockHash) {
      const block = blockOfHash(filter.blockHash);
      if (!block) throw new RpcError(-32000, 'unknown block');
      from = to = block.number;
    } else {
      from = blockNumberOf(filter.fromBlock ?? 'latest');
      to = Math.min(blockNumberOf(filter.toBlock ?? 'latest'), chain.head);
    }
    const addresses = filter.address === undefined ? null : new Set((Array.isArray(filter.address) ? filter.address : [filter.address]).map((a) => a.toLowerCase()));
    const topics = (filter.topics ?? []).map((t) => (t === null ? null : new Set((Array.isArray(t) ? t : [t]).map((x) => x.toLowerCase()))));
    let count = 0;
    // Only blocks holding a log from a named emitter with a named topic0 are generated.
    const blocks = filter.blockHash ? [from] : chain.emitters.candidates(Math.max(0, from), to, { addresses, topic0s: topics[0] ?? null });
    for (const n of blocks) {
      const block = chain.block(n)!;
      let logIndex = 0;
      const txs = block.txs;
      for (let txIndex = 0; txIndex < txs.length; txIndex++) {
        for (const log of txs[txIndex]!.logs) {
          const index = logIndex++;
          if (addresses && !addresses.has(log.address)) continue;
          if (topics[0] && log.topic0 !== undefined && !topics[0].has(log.topic0)) continue;
          if (!matches(topics, log.topics)) continue;
          emit(block, txIndex, log, index);
          count++;
        }
      }
      if (count > limit) return count;
    }
    return count;
  }

  function matches(filter: (Set<string> | null)[], topics: string[]): boolean {
    for (let k = 0; k < filter.length; k++) {
      const set = filter[k];
      if (set && (topics[k] === undefined || !set.has(topics[k]!))) return false;
    }
    return true;
  }

  function getLogs(filter: Filter, limit = Infinity): unknown[] {
    const out: unknown[] = [];
    eachLog(filter, limit, (block, txIndex, log, index) => out.push(logObject(block, txIndex, log, index)));
    return out;
  }

  /** The same logs as one JSON array text, written by hand (JSON.stringify of objects costs a third of the answer's time). */
  function getLogsJson(filter: Filter, limit = Infinity): { count: number; json: string } {
    const parts: string[] = [];
    let lastBlock: Block | null = null;
    let blockPart = '';
    const count = eachLog(filter, limit, (block, txIndex, log, index) => {
      if (block !== lastBlock) {
        lastBlock = block;
        blockPart = `"blockNumber":"${hex(block.number)}","blockHash":"${block.hash}"${options.blockTimestamp ? `,"blockTimestamp":"${hex(block.timestamp)}"` : ''}`;
      }
      parts.push(
        `{"address":"${log.address}","topics":["${log.topics.join('","')}"],"data":"${log.data}",${blockPart},"transactionHash":"${block.txHashes[txIndex]}","transactionIndex":"${hex(txIndex)}","logIndex":"${hex(index)}","removed":false}`,
      );
    });
    return { count, json: `[${parts.join(',')}]` };
  }

  const methods: Record<string, (p: Params) => unknown> = {
    eth_chainId: () => hex(CHAIN_ID),
    net_version: () => String(CHAIN_ID),
    web3_clientVersion: () => 'linea-sim/1.0',
    eth_blockNumber: () => hex(chain.head),
    eth_gasPrice: () => hex(50_000_000),
    eth_getBlockByNumber: ([tag, full]) => {
      const block = chain.block(blockNumberOf(tag));
      return block ? blockObject(block, full === true) : null;
    },
    eth_getBlockByHash: ([hash, full]) => {
      const block = blockOfHash(String(hash));
      return block ? blockObject(block, full === true) : null;
    },
    eth_getLogs: ([filter]) => getLogs((filter ?? {}) as Filter),
    eth_call: ([tx, tag]) => {
      const { to, data, input, from } = (tx ?? {}) as { to?: string; data?: string; input?: string; from?: string };
      if (!to) throw new RpcError(-32602, 'eth_call: missing to');
      try {
        return call(chain, stateBlock(tag), to, data ?? input ?? '0x', from);
      } catch (error) {
        if (error instanceof Revert) throw new RpcError(3, error.message, error.data);
        throw error;
      }
    },
    eth_getCode: ([address, tag]) => (stateBlock(tag), codeOf(chain, String(address))),
    eth_getStorageAt: ([address, slot, tag]) => storageAt(chain, stateBlock(tag), String(address), String(slot)),
    eth_getBalance: ([, tag]) => (stateBlock(tag), '0x0'),
    eth_getTransactionCount: ([, tag]) => (stateBlock(tag), '0x0'),
    eth_getTransactionByHash: ([hash]) => {
      const found = locate(String(hash));
      return found ? txObject(found.block, found.index) : null;
    },
    eth_getTransactionByBlockNumberAndIndex: ([tag, index]) => {
      const block = chain.block(blockNumberOf(tag));
      const i = Number(index);
      return block && i < block.txs.length ? txObject(block, i) : null;
    },
    eth_getTransactionByBlockHashAndIndex: ([hash, index]) => {
      const block = blockOfHash(String(hash));
      const i = Number(index);
      return block && i < block.txs.length ? txObject(block, i) : null;
    },
    eth_getTransactionReceipt: ([hash]) => {
      const found = locate(String(hash));
      return found ? receipt(found.block, found.index) : null;
    },
    eth_getBlockTransactionCountByNumber: ([tag]) => {
      const block = chain.block(blockNumberOf(tag));
      return block ? hex(block.txs.length) : null;
    },
    sim_mine: ([count]) => (chain.mine(Number(count ?? 1)), hex(chain.head)),
    sim_reorg: ([depth]) => (chain.reorg(Number(depth ?? 1)), hex(chain.head)),
  };

  function locate(hash: string) {
    if (!/^0x[0-9a-fA-F]{64}$/.test(hash)) return null;
    const { block: n, index } = SimChain.locateTx(hash.toLowerCase());
    const block = chain.block(n);
    return block && block.txHashes[index] === hash.toLowerCase() ? { block, index } : null;
  }

  return { methods, getLogs, getLogsJson, blockNumberOf };
}

// Thin transaction helper over the in-process provider: ABI encoding via ethers' Interface, unlocked
// Hardhat accounts (eth_sendTransaction), explicit gas so batches can be queued and mined by hand.
import { Interface, type Result } from 'ethers';
import { loadContract, type ContractName } from '../chain/contracts.ts';
import type { DemoChain } from './chain.ts';

export interface SendOptions {
  gas?: bigint;
  value?: bigint;
}

export interface DemoClient {
  request<T = unknown>(method: string, params?: unknown[]): Promise<T>;
  accounts: string[];
  iface(name: ContractName): Interface;
  /** Queues a transaction (mined on the next mine()); returns its hash. */
  send(from: string, to: string, name: ContractName, fn: string, args: unknown[], opts?: SendOptions): Promise<string>;
  /** Queues a deployment; returns the hash (the address is derived from sender and nonce by the caller or read after mining). */
  deploy(from: string, name: ContractName, args: unknown[], gas?: bigint): Promise<string>;
  call(to: string, name: ContractName, fn: string, args?: unknown[]): Promise<Result>;
  /** Mines queued txs (several blocks if they do not fit), checks every receipt succeeded; returns receipts by hash. */
  mine(timestamp?: number): Promise<Map<string, TxReceipt>>;
  setAutomine(on: boolean): Promise<void>;
  latestBlock(): Promise<{ number: number; timestamp: number }>;
}

export interface TxReceipt {
  transactionHash: string;
  status: string;
  blockNumber: string;
  transactionIndex: string;
  contractAddress: string | null;
  logs: { address: string; topics: string[]; data: string }[];
}

const toHex = (v: bigint) => `0x${v.toString(16)}`;

export async function createDemoClient(chain: DemoChain): Promise<DemoClient> {
  const request = async <T>(method: string, params: unknown[] = []) =>
    (await chain.provider.request({ method, params })) as T;
  const accounts = await request<string[]>('eth_accounts');
  const ifaces = new Map<ContractName, Interface>();
  const iface = (name: ContractName) => {
    let i = ifaces.get(name);
    if (!i) ifaces.set(name, (i = new Interface(loadContract(name).abi as never)));
    return i;
  };
  let pending: { hash: string; what: string }[] = [];

  const submit = async (tx: Record<string, string>, what: string) => {
    const hash = await request<string>('eth_sendTransaction', [tx]);
    pending.push({ hash, what });
    return hash;
  };

  return {
    request,
    accounts,
    iface,
    async send(from, to, name, fn, args, opts = {}) {
      const tx: Record<string, string> = { from, to, data: iface(name).encodeFunctionData(fn, args), gas: toHex(opts.gas ?? 400_000n) };
      if (opts.value) tx.value = toHex(opts.value);
      return submit(tx, `${name}.${fn}`);
    },
    async deploy(from, name, args, gas = 6_000_000n) {
      const data = loadContract(name).bytecode + iface(name).encodeDeploy(args).slice(2);
      return submit({ from, data, gas: toHex(gas) }, `deploy ${name}`);
    },
    async call(to, name, fn, args = []) {
      const data = await request<string>('eth_call', [{ to, data: iface(name).encodeFunctionData(fn, args) }, 'latest']);
      return iface(name).decodeFunctionResult(fn, data);
    },
    async mine(timestamp) {
      const batch = pending;
      pending = [];
      const receipts = new Map<string, TxReceipt>();
      let ts = timestamp;
      // A block holds at most blockGasLimit of declared gas: keep mining until every queued
      // transaction has its receipt (asked of each node alike: Anvil's pending block does not list
      // the pool the way Hardhat's does).
      let waiting = batch;
      do {
        await request('evm_mine', ts === undefined ? [] : [ts]);
        if (ts !== undefined) ts += 1;
        const left: typeof batch = [];
        // Asked together: the HTTP provider sends them as one batch.
        const found = await Promise.all(waiting.map((tx) => request<TxReceipt | null>('eth_getTransactionReceipt', [tx.hash])));
        for (const [i, tx] of waiting.entries()) {
          const r = found[i];
          if (!r) left.push(tx);
          else if (r.status !== '0x1') throw new Error(`demo tx failed: ${tx.what} (${tx.hash})`);
          else receipts.set(tx.hash, r);
        }
        if (left.length > 0 && left.length === waiting.length) throw new Error(`demo txs not mined: ${left.map((t) => t.what).join(', ')}`);
        waiting = left;
      } while (waiting.length > 0);
      return receipts;
    },
    async setAutomine(on) {
      await request('evm_setAutomine', [on]);
    },
    async latestBlock() {
      const b = await request<{ number: string; timestamp: string }>('eth_getBlockByNumber', ['latest', false]);
      return { number: Number(b.number), timestamp: Number(b.timestamp) };
    },
  };
}

// Embedded demo network: an in-process Hardhat 2 (EDR) chain served over HTTP JSON-RPC,
// so the rest of the service talks to it exactly as it would to a real Linea node.
import { fileURLToPath } from 'node:url';
import { HDNodeWallet, Mnemonic } from 'ethers';
import { resolveConfig } from 'hardhat/internal/core/config/config-resolution.js';
import { createProvider } from 'hardhat/internal/core/providers/construction.js';
import type { HardhatNetworkAccountsConfig } from 'hardhat/types/config.js';
import { JsonRpcServer } from 'hardhat/internal/hardhat-network/jsonrpc/server.js';
import { createChainClient } from '../chain/index.ts';

/** Minimal EIP-1193 surface; ethers' BrowserProvider and viem's custom transport accept it. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] | object }): Promise<unknown>;
}

export interface DemoChain {
  /** HTTP JSON-RPC endpoint, e.g. http://127.0.0.1:41234 */
  url: string;
  chainId: number;
  /** In-process provider: same chain state, no HTTP round trip. */
  provider: Eip1193Provider;
  /** Milliseconds from call to first answered eth_chainId over HTTP. */
  startupMs: number;
  stop(): Promise<void>;
}

export interface DemoChainOptions {
  /** 0 (default) picks a free port. */
  port?: number;
  /** Default 31337. */
  chainId?: number;
  /** Default 127.0.0.1. */
  host?: string;
  /** Genesis timestamp; set it in the past to be able to mine a back-dated history. Default: now. */
  initialDate?: Date;
  /** Balance of each of the 20 default accounts, in wei. Default 1,000,000 ETH. */
  accountsBalanceWei?: bigint;
}

/**
 * The 20 default accounts with `balance` each: the accounts of Hardhat's test mnemonic, whose keys
 * are derived once per process. Hardhat derives them again for every chain it creates, with
 * PBKDF2 in JavaScript (about 0.6 s of CPU); here BIP-39/BIP-32 derive them through ethers, whose
 * PBKDF2 is Node's (a few ms). Handed as keys, the chain has the same accounts.
 */
function defaultAccounts(resolved: HardhatNetworkAccountsConfig, balance: string): HardhatNetworkAccountsConfig {
  if (Array.isArray(resolved)) return resolved;
  const key = JSON.stringify([resolved.mnemonic, resolved.path, resolved.initialIndex, resolved.count, resolved.passphrase]);
  let keys = derivedKeys.get(key);
  if (!keys) derivedKeys.set(key, (keys = deriveMnemonicKeys(resolved)));
  return keys.map((privateKey) => ({ privateKey, balance }));
}
const derivedKeys = new Map<string, string[]>();

/** The private keys of accounts `initialIndex` … `initialIndex + count - 1` under `path` of a BIP-39 mnemonic, as Hardhat derives them. */
export function deriveMnemonicKeys(accounts: { mnemonic: string; passphrase: string; path: string; initialIndex: number; count: number }): string[] {
  const parent = HDNodeWallet.fromMnemonic(Mnemonic.fromPhrase(accounts.mnemonic, accounts.passphrase), accounts.path);
  return Array.from({ length: accounts.count }, (_, i) => parent.deriveChild(accounts.initialIndex + i).privateKey);
}

export async function startDemoChain(options: DemoChainOptions = {}): Promise<DemoChain> {
  const started = performance.now();
  const chainId = options.chainId ?? 31337;
  const host = options.host ?? '127.0.0.1';
  const balance = (options.accountsBalanceWei ?? 10n ** 24n).toString();
  // Hardhat resolves project paths relative to a config file that must exist; pointing it at
  // this module avoids needing a hardhat.config in the caller's cwd. Nothing is written there.
  const config = resolveConfig(fileURLToPath(import.meta.url), {
    networks: {
      hardhat: {
        chainId,
        initialDate: options.initialDate?.toISOString(),
        accounts: { accountsBalance: balance },
        // fifo keeps a batch of queued txs in send order when the simulation mines blocks by hand.
        mining: { auto: true, interval: 0, mempool: { order: 'fifo' } },
        loggingEnabled: false,
      },
    },
  });
  const hardhat = config.networks.hardhat;
  hardhat.accounts = defaultAccounts(hardhat.accounts, balance);
  const provider = await createProvider(config, 'hardhat');
  const server = new JsonRpcServer({ hostname: host, port: options.port ?? 0, provider });
  const address = await server.listen();
  const url = `http://${host}:${address.port}`;
  await firstAnswer(url);
  let stopped = false;
  return {
    url,
    chainId,
    provider,
    startupMs: Math.round(performance.now() - started),
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.close();
    },
  };
}

// The chain only counts as started once it answers over HTTP like a real node would.
async function firstAnswer(url: string): Promise<void> {
  const client = createChainClient({ url, maxRetries: 0 });
  try {
    await client.getChainId();
  } finally {
    client.destroy();
  }
}

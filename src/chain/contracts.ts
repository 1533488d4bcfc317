// Typed access to the compiled demo contracts in generated/contracts (written by scripts/generate/30-contracts.ts).
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CONTRACT_NAMES = [
  'Bytes32MetadataToken',
  'DemoAlgebraFactory',
  'DemoAlgebraPool',
  'DemoCheckedAggregator',
  'DemoEtherexFactory',
  'DemoEtherexPair',
  'DemoFeedProxy',
  'DemoFiatToken',
  'DemoHoneypotToken',
  'DemoMintableToken',
  'DemoOwnedToken',
  'DemoPancakeV3Factory',
  'DemoPancakeV3Pool',
  'DemoPoolManager',
  'DemoReservePool',
  'DemoSolidlyFactory',
  'DemoSwapDeltaHook',
  'DemoSyncSwapFactory',
  'DemoTaxToken',
  'DemoToken',
  'DemoUpgradeableProxy',
  'DemoUsdFeed',
  'DemoV3Factory',
  'DemoV3Pool',
  'MaxDecimalsToken',
  'Multicall3',
  'NetworkToken',
  'NoDecimalsToken',
  'RevertingNameToken',
  'UniswapV2Factory',
  'UniswapV2Pair',
  'UniswapV2Router',
  'WETH9',
] as const;

export type ContractName = (typeof CONTRACT_NAMES)[number];

export interface ContractArtifact {
  contractName: ContractName;
  sourceName: string;
  /** Solidity JSON ABI; feed it to ethers' Interface or viem. */
  abi: readonly Record<string, unknown>[];
  /** Creation code, 0x-prefixed. */
  bytecode: `0x${string}`;
  /** Runtime code, 0x-prefixed (used to place Multicall3 at its canonical address). */
  deployedBytecode: `0x${string}`;
}

/** Canonical Multicall3 address on Linea and most EVM chains; the demo chain puts the code there too. */
export const MULTICALL3_ADDRESS = '0xcA11bde05977b3631167028862bE2a173976CA11';

const generatedDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'generated', 'contracts');
const cache = new Map<ContractName, ContractArtifact>();

export function loadContract(name: ContractName): ContractArtifact {
  let artifact = cache.get(name);
  if (!artifact) {
    artifact = JSON.parse(readFileSync(join(generatedDir, `${name}.json`), 'utf8')) as ContractArtifact;
    cache.set(name, artifact);
  }
  return artifact;
}

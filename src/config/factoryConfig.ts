// The configured factories: one map from factory type (the indexer's family registry names the
// types; config only carries them) to the factories of that type, each with the first block its
// pools can be announced in. A preset gives `factories: { "<type>": [{ address, fromBlock, name,
// source }] }`; INDEXER_<TYPE>_FACTORIES=addr[@fromBlock],… replaces the preset's list of that type
// (type `pancake-v3` is INDEXER_PANCAKE_V3_FACTORIES).
import type { Env } from './readEnv.ts';

export type FactoryConfig = {
  /** Lower-case address of the factory (for Uniswap V4: the PoolManager). */
  address: string;
  /** The factory's deployment block, or an earlier one: its pools are discovered from here. */
  fromBlock: number;
  /** Human name of the DEX (preset only). */
  name?: string;
  /** Where the address and the block come from (preset only). */
  source?: string;
};

export type FactoriesByType = Readonly<Record<string, readonly FactoryConfig[]>>;

const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const ENV_NAME = /^INDEXER_([A-Z0-9_]+)_FACTORIES$/;

/** `INDEXER_PANCAKE_V3_FACTORIES` → `pancake-v3`. */
export const factoryTypeOfEnv = (name: string): string | null => {
  const m = ENV_NAME.exec(name);
  return m ? m[1]!.toLowerCase().replace(/_/g, '-') : null;
};

export const envNameOfFactoryType = (type: string) => `INDEXER_${type.toUpperCase().replace(/-/g, '_')}_FACTORIES`;

/** The preset's factories overlaid by the environment's; every bad entry is pushed to `problems`. */
export function readFactories(preset: unknown, env: Env, problems: string[]): FactoriesByType {
  const out: Record<string, FactoryConfig[]> = {};
  if (preset !== undefined) {
    if (typeof preset !== 'object' || preset === null || Array.isArray(preset)) problems.push('preset factories: expected an object of factory types');
    else {
      for (const [type, list] of Object.entries(preset)) {
        if (!Array.isArray(list)) {
          problems.push(`preset factories.${type}: expected a list`);
          continue;
        }
        out[type] = list.flatMap((entry, i) => presetEntry(entry, `preset factories.${type}[${i}]`, problems));
      }
    }
  }
  for (const [name, raw] of Object.entries(env)) {
    const type = factoryTypeOfEnv(name);
    if (type === null || raw === undefined || raw.trim() === '') continue;
    const items = raw.split(',').map((s) => s.trim()).filter(Boolean);
    const entries = items.map(envEntry);
    const bad = items.filter((_, i) => entries[i] === null);
    if (bad.length > 0) problems.push(`${name}: not an address or address@fromBlock: ${bad.map((b) => JSON.stringify(b)).join(', ')}`);
    out[type] = entries.filter((e): e is FactoryConfig => e !== null);
  }
  return out;
}

function presetEntry(entry: unknown, where: string, problems: string[]): FactoryConfig[] {
  const e = (entry ?? {}) as Record<string, unknown>;
  const before = problems.length;
  if (typeof e.address !== 'string' || !ADDRESS.test(e.address)) problems.push(`${where}.address: expected a 0x address`);
  if (!Number.isSafeInteger(e.fromBlock) || (e.fromBlock as number) < 0) problems.push(`${where}.fromBlock: expected a block number (0 when unknown)`);
  for (const key of ['name', 'source'] as const) if (e[key] !== undefined && typeof e[key] !== 'string') problems.push(`${where}.${key}: expected a string`);
  for (const key of Object.keys(e)) if (!['address', 'fromBlock', 'name', 'source'].includes(key)) problems.push(`${where}.${key}: unknown key`);
  if (problems.length > before) return [];
  return [{ address: (e.address as string).toLowerCase(), fromBlock: e.fromBlock as number, name: e.name as string | undefined, source: e.source as string | undefined }];
}

function envEntry(item: string): FactoryConfig | null {
  const [address, block] = item.split('@');
  const fromBlock = block === undefined ? 0 : /^\d+$/.test(block) ? Number(block) : NaN;
  if (!address || !ADDRESS.test(address) || !Number.isSafeInteger(fromBlock)) return null;
  return { address: address.toLowerCase(), fromBlock };
}

/** The first block any configured factory can announce a pool in; null without factories. */
export function firstFactoryBlock(factories: FactoriesByType): number | null {
  const blocks = Object.values(factories).flat().map((f) => f.fromBlock);
  return blocks.length > 0 ? Math.min(...blocks) : null;
}

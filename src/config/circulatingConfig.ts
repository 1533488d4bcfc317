// Which balances are not circulating, per token: the burn addresses (for every token) and each
// listed token's excluded wallets (treasury, team, vesting and lock contracts). The token
// contract's own balance is always subtracted and is not listed. The network token is not listed
// either: its figure follows the supply configuration (SUPPLY_CONFIG), as /supply/circulating does.
// Loaded once at start-up; every bad entry is reported at once.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ConfigError } from '../errors/index.ts';
import { DEFAULT_BURN_ADDRESSES, isObject, parseList, type Fail, type LabelledAddress, type SupplyRoles } from './supplyConfig.ts';

export type CirculatingToken = {
  /** Checksummed. */
  address: string;
  label: string;
  /** Checksummed; their balances of this token are not circulating. */
  excludedWallets: LabelledAddress[];
};

export type CirculatingConfig = {
  /** Checksummed; their balances are subtracted for every token. */
  burnAddresses: LabelledAddress[];
  tokens: CirculatingToken[];
};

/** No file: the default burn addresses and no excluded wallets. */
export const DEFAULT_CIRCULATING_CONFIG: CirculatingConfig = { burnAddresses: DEFAULT_BURN_ADDRESSES.map((b) => ({ ...b })), tokens: [] };

const configDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'config', 'circulating');

/** The checked-in file of a network preset (config/circulating/<network>.json), if there is one. */
export function circulatingConfigPathOf(network: string): string | null {
  if (!/^[A-Za-z0-9_-]+$/.test(network)) return null;
  const path = join(configDir, `${network}.json`);
  return existsSync(path) ? path : null;
}

export type CirculatingConfigOptions = {
  /** Names the file's `role` entries may use (the demo deployment's tokens and accounts). */
  roles?: SupplyRoles;
  /** The network token, which must not be listed (its rule is the supply configuration's). */
  networkToken?: string;
};

/** Reads and validates a circulating-supply configuration file; throws one ConfigError naming every bad entry. */
export function loadCirculatingConfig(path: string, options: CirculatingConfigOptions = {}): CirculatingConfig {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new ConfigError([`INDEXER_CIRCULATING_CONFIG ${path}: cannot be read as JSON (${(error as Error).message})`]);
  }
  return parseCirculatingConfig(json, path, options);
}

const KEYS = new Set(['$schema', 'description', 'burnAddresses', 'tokens']);
const TOKEN_KEYS = new Set(['address', 'role', 'label', 'excludedWallets']);

/** Validates an already parsed configuration; `where` prefixes every problem (the file path). */
export function parseCirculatingConfig(json: unknown, where: string, options: CirculatingConfigOptions = {}): CirculatingConfig {
  const roles = options.roles ?? {};
  const problems: string[] = [];
  const fail: Fail = (entry, message) => problems.push(`${where}: ${entry}: ${message}`);
  if (!isObject(json)) throw new ConfigError([`${where}: expected a JSON object`]);
  for (const key of Object.keys(json)) if (!KEYS.has(key)) fail(key, 'unknown key');

  const burnAddresses = json.burnAddresses === undefined ? DEFAULT_CIRCULATING_CONFIG.burnAddresses.map((b) => ({ ...b })) : parseList(json.burnAddresses, 'burnAddresses', roles, fail);
  const burned = new Map(burnAddresses.map((b, i) => [b.address.toLowerCase(), `burnAddresses[${i}]`]));
  if (burned.size < burnAddresses.length) fail('burnAddresses', 'an address is listed twice');

  const tokens: CirculatingToken[] = [];
  const seenTokens = new Map<string, string>();
  const rawTokens = json.tokens ?? [];
  if (!Array.isArray(rawTokens)) fail('tokens', 'expected an array of {"address" or "role", "label", "excludedWallets"} objects');
  else
    rawTokens.forEach((item: unknown, i) => {
      const entry = `tokens[${i}]`;
      if (!isObject(item)) return fail(entry, 'expected an object with "address" or "role", "label" and "excludedWallets"');
      for (const key of Object.keys(item)) if (!TOKEN_KEYS.has(key)) fail(`${entry}.${key}`, 'unknown key');
      // The token itself is an {address or role, label} entry: parsed as a one-entry list, problems renamed.
      const [token] = parseList([pick(item, ['address', 'role', 'label'])], 'tokens', roles, (e, m) => fail(e.replace(/^tokens\[0\]/, entry), m));
      if (!Array.isArray(item.excludedWallets) || item.excludedWallets.length === 0) {
        fail(`${entry}.excludedWallets`, 'expected a non-empty array of {"address" or "role", "label"} objects');
        return;
      }
      const wallets = parseList(item.excludedWallets, `${entry}.excludedWallets`, roles, fail);
      if (!token) return;
      const key = token.address.toLowerCase();
      if (seenTokens.has(key)) fail(entry, `${token.address} is already listed as ${seenTokens.get(key)}`);
      seenTokens.set(key, entry);
      if (options.networkToken && key === options.networkToken.toLowerCase())
        fail(entry, `${token.address} is the network token: its excluded wallets are those of the supply configuration (SUPPLY_CONFIG)`);
      const listed = new Map<string, string>();
      wallets.forEach((w, j) => {
        const at = `${entry}.excludedWallets[${j}]`;
        const k = w.address.toLowerCase();
        if (k === key) fail(at, 'the token contract itself is always excluded; do not list it');
        else if (burned.has(k)) fail(at, `${w.address} is already listed as ${burned.get(k)}`);
        else if (listed.has(k)) fail(at, `${w.address} is already listed as ${listed.get(k)}`);
        listed.set(k, at);
      });
      tokens.push({ ...token, excludedWallets: wallets });
    });

  if (problems.length > 0) throw new ConfigError(problems);
  return { burnAddresses, tokens };
}

function pick(item: Record<string, unknown>, keys: string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((k) => item[k] !== undefined).map((k) => [k, item[k]]));
}

// What a demo snapshot is keyed on (snapshot.ts). The chain part: every file of the contracts
// (sources and compiled artifacts), of src/demo and the contract loader, the seed and the node's
// version; so a new contract, DEX family or demo module changes the key without a list to keep.
// The database part: the chain part plus the migrations, the indexer's code and what it reads
// through (src/db, src/indexer, src/chain, src/config, config/), and the indexer's configuration.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: src/demo/ and dist/demo/ are both two levels below it. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

export const CHAIN_KEY_PATHS = ['contracts', 'generated/contracts', 'src/demo', 'src/chain/contracts.ts'];
export const DATABASE_KEY_PATHS = ['src/db', 'src/indexer', 'src/chain', 'src/config', 'config'];

function files(path: string): string[] {
  const entries = (() => {
    try {
      return readdirSync(path, { withFileTypes: true });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOTDIR') return null;
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw error;
    }
  })();
  if (entries === null) return [path];
  return entries
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .flatMap((e) => (e.isDirectory() ? files(join(path, e.name)) : e.isFile() ? [join(path, e.name)] : []));
}

/** sha256 over the paths (relative to `root`) and contents of every file under `paths`, then `extra`. */
export function hashTree(root: string, paths: readonly string[], extra: unknown): string {
  const hash = createHash('sha256');
  for (const path of paths) {
    for (const file of files(join(root, path))) hash.update(`\0${relative(root, file)}\0`).update(readFileSync(file));
  }
  hash.update(`\0${JSON.stringify(extra)}`);
  return hash.digest('hex').slice(0, 24);
}

export function chainKey(inputs: { seed: number; node: string }, root = repoRoot): string {
  return hashTree(root, CHAIN_KEY_PATHS, inputs);
}

export function databaseKey(chain: string, indexerInputs: unknown, root = repoRoot): string {
  return hashTree(root, DATABASE_KEY_PATHS, { chain, indexerInputs });
}

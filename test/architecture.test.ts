// The dependency direction of the design, checked on every import in src/: spec → generated →
// src; inside src, errors/, config/ and spec/ (reading the spec documents) are leaves, db/ and
// chain/ use only errors and config, the read model (readModel/: what the API answers from, held
// in memory) sits on db and chain, api/ adapts it to HTTP, indexer/ and rpc/ use db and chain but
// not each other, the explorer page (explorer/) sees only the typed client, and only main.ts
// wires everything.
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, it } from 'node:test';

const root = resolve(import.meta.dirname, '..');
const src = join(root, 'src');

// folder → the src folders it may import from (its own is always allowed; generated/ too)
const allowed: Record<string, string[]> = {
  errors: [],
  config: ['errors'],
  spec: [],
  db: ['errors', 'config'],
  chain: ['errors', 'config'],
  indexer: ['errors', 'config', 'db', 'chain'],
  readModel: ['errors', 'config', 'db', 'chain'],
  api: ['errors', 'config', 'spec', 'db', 'chain', 'readModel'],
  rpc: ['errors', 'config', 'spec', 'db', 'chain'],
  client: [],
  docs: ['errors', 'config', 'spec'],
  // the explorer page runs in a browser: it reaches the API only through the typed client
  explorer: ['client'],
  // the embedded demo network is wiring too: it deploys, trades and lists its tokens
  demo: ['errors', 'config', 'db', 'chain', 'indexer', 'readModel', 'api'],
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

const importsOf = (file: string) =>
  [...readFileSync(file, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'(\.[^']+)'/g)].map((m) => resolve(dirname(file), m[1]!));

describe('dependency direction', () => {
  const sources = files(src);

  it('covers every folder of src/', () => {
    const folders = new Set(sources.map((f) => relative(src, f).split('/')[0]!).filter((f) => !f.endsWith('.ts')));
    assert.deepEqual([...folders].sort(), Object.keys(allowed).sort());
  });

  for (const [folder, may] of Object.entries(allowed)) {
    it(`${folder}/ imports only ${may.length ? may.join(', ') : 'itself'} (and generated/)`, () => {
      const wrong: string[] = [];
      for (const file of sources.filter((f) => relative(src, f).startsWith(`${folder}/`))) {
        for (const target of importsOf(file)) {
          const rel = relative(root, target);
          if (rel.startsWith('generated/')) continue;
          const [top, sub] = rel.split('/');
          const ok = top === 'src' && (sub === folder || may.includes(sub!));
          if (!ok) wrong.push(`${relative(root, file)} → ${rel}`);
        }
      }
      assert.deepEqual(wrong, []);
    });
  }

  it('generated/ imports nothing from src/', () => {
    const wrong = files(join(root, 'generated')).filter((f) => importsOf(f).some((t) => relative(root, t).startsWith('src/')));
    assert.deepEqual(wrong, []);
  });
});

describe('configuration is read once', () => {
  it('only src/config/ and src/main.ts read the environment (process.env, NODE_ENV)', () => {
    const readers = files(src)
      .filter((f) => !relative(src, f).startsWith('config/') && relative(src, f) !== 'main.ts')
      .filter((f) => /process\.env|NODE_ENV/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f));
    assert.deepEqual(readers, []);
  });
});

describe('the indexer imports one way', () => {
  const indexer = join(src, 'indexer');
  const sources = files(indexer);
  const folderOf = (file: string) => dirname(relative(indexer, file)) || '.';
  const edges = (unit: (file: string) => string) => {
    const graph = new Map<string, Set<string>>();
    for (const file of sources) {
      for (const target of importsOf(file)) {
        if (!target.startsWith(`${indexer}/`)) continue;
        const [from, to] = [unit(file), unit(target)];
        if (from !== to) graph.set(from, (graph.get(from) ?? new Set()).add(to));
      }
    }
    return graph;
  };
  /** Every cycle's path, found by depth-first search. */
  const cycles = (graph: Map<string, Set<string>>) => {
    const found: string[] = [];
    const state = new Map<string, 'open' | 'done'>();
    const visit = (node: string, path: string[]) => {
      if (state.get(node) === 'done') return;
      if (state.get(node) === 'open') {
        found.push([...path.slice(path.indexOf(node)), node].join(' → '));
        return;
      }
      state.set(node, 'open');
      for (const next of graph.get(node) ?? []) visit(next, [...path, node]);
      state.set(node, 'done');
    };
    for (const node of graph.keys()) visit(node, []);
    return found;
  };

  it('no import cycle between files of src/indexer', () => {
    assert.deepEqual(cycles(edges((f) => relative(indexer, f))), []);
  });

  it('no import cycle between folders of src/indexer (its own top-level files count as one folder)', () => {
    assert.deepEqual(cycles(edges(folderOf)), []);
  });
});

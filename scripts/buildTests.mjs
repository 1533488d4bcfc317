// Compiles the TypeScript that tests load (src/, test/, scripts/, bench/, generated/) to plain ESM
// JavaScript in a directory of its own, once per `npm test`, so that the test processes need no
// tsx loader: each of them would otherwise start tsx's loader thread and send every import through
// it (about 1 s of CPU per test file). The output mirrors the repository's paths; every import stays
// an import (bundle mode only for its resolve hook: relative `.ts` imports become `.js`, packages
// stay packages, found from node_modules/.cache up). `import.meta.url`, `.dirname` and `.filename`
// are the source file's own, so paths built from them (migrations, spec/, generated/, fixtures,
// child processes of `.ts` files) are the same as under tsx; stack traces map to the sources
// (linked source maps, node --enable-source-maps).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { build } from 'esbuild';
import { keepImports, NODE_ESM_OPTIONS } from './keepImports.mjs';

export const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const COMPILED = ['src', 'test', 'scripts', 'bench', 'generated', 'sim'];

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : walk(path);
    return entry.isFile() && /\.[cm]?ts$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

const keepImportsPlugin = keepImports({ root, compiled: COMPILED, what: 'for the tests' });

/** `import.meta.url`, `.dirname` and `.filename` of the source file, not of its output. */
const sourceImportMeta = {
  name: 'source-import-meta',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?ts$/ }, (args) => {
      const source = readFileSync(args.path, 'utf8');
      const values = { url: pathToFileURL(args.path).href, dirname: dirname(args.path), filename: args.path };
      const contents = source.replace(/\bimport\.meta\.(url|dirname|filename)\b/g, (_, key) => JSON.stringify(values[key]));
      return { contents, loader: 'ts' };
    });
  },
};

/**
 * Compiles into a new directory under node_modules/.cache/token-api-tests (several runs may
 * share the tree); returns it and the output path of a source file. The caller removes it.
 */
export async function buildTests() {
  const started = performance.now();
  const parent = join(root, 'node_modules', '.cache', 'token-api-tests');
  mkdirSync(parent, { recursive: true });
  // A run that was killed leaves its directory behind: gone after a day.
  for (const name of readdirSync(parent)) {
    const path = join(parent, name);
    if (name.startsWith('js-') && statSync(path).mtimeMs < Date.now() - 86_400_000) rmSync(path, { recursive: true, force: true });
  }
  const outDir = mkdtempSync(join(parent, 'js-'));
  const entryPoints = COMPILED.flatMap((d) => walk(join(root, d)));
  await build({
    absWorkingDir: root,
    entryPoints,
    outbase: root,
    outdir: outDir,
    ...NODE_ESM_OPTIONS,
    plugins: [keepImportsPlugin, sourceImportMeta],
  });
  // The package's own description, for the output: ES modules, and its name and exports (a test
  // imports linea-token-api/client) pointing at the compiled files.
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
  const toJs = (value) => JSON.parse(JSON.stringify(value ?? null).replace(/\.([cm]?)ts"/g, '.$1js"')) ?? undefined;
  writeFileSync(join(outDir, 'package.json'), JSON.stringify({ name: pkg.name, type: pkg.type, exports: toJs(pkg.exports), imports: toJs(pkg.imports) }, null, 2));
  return {
    outDir,
    modules: entryPoints.length,
    ms: Math.round(performance.now() - started),
    /** The compiled counterpart of a source path (relative to the repository, or absolute). */
    output: (source) => join(outDir, relative(root, resolve(root, source))).replace(/\.([cm]?)ts$/, '.$1js'),
  };
}

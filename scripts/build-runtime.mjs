// Compiles src/**/*.ts to plain ESM JavaScript in dist/, one file per source file at the same
// depth (src/api/x.ts → dist/api/x.js), so that `new URL('../..', import.meta.url)` still
// reaches the repository root; copies the other files of src/ (SQL migrations) beside them.
// Then bundles the explorer page for the browser (src/explorer/page/, by src/explorer/bundleExplorer.ts
// run from its compiled copy) into dist/explorer/assets/, where the explorer router serves it from.
// `npm start|serve|index` run it before `node dist/main.js`: plain JS needs no tsx loader thread.
// Relative `.ts` imports become `.js`; every import stays an import: esbuild's bundle mode is used
// only for its resolve hook, which marks every import external, so nothing is inlined.
// Safe to run concurrently: an unchanged file is not rewritten, a changed one is replaced by rename.
// Skipped when nothing changed since the last build: every file of src/, of dist/, the build's
// own scripts and package-lock.json (esbuild's and the page's packages) as it left them (paths,
// sizes, modification times; dist/.build-stamp). A second
// `npm start` then spends about 0.1 s here instead of about 1 s.
// Usage: node scripts/build-runtime.mjs [--verbose]
import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const started = performance.now();
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const srcDir = join(root, 'src');
const outDir = join(root, 'dist');

function walk(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    return entry.isDirectory() ? walk(path) : entry.isFile() ? [path] : [];
  });
}

// Code that runs in a browser, not in Node: bundled below for the page, never compiled into dist/.
const browserDirs = [join(srcDir, 'explorer', 'page')];
const stampPath = join(outDir, '.build-stamp');

/** What the last build saw and left: src/, dist/ (but the stamp), the build's scripts and the installed packages' lock, by path, size and mtime. */
function fingerprint() {
  const hash = createHash('sha256');
  const files = [...walk(srcDir), ...(statSync(outDir, { throwIfNoEntry: false }) ? walk(outDir) : []), fileURLToPath(import.meta.url), join(root, 'scripts', 'keepImports.mjs'), join(root, 'package-lock.json')];
  for (const file of files.sort()) {
    if (file === stampPath) continue;
    const stat = statSync(file, { throwIfNoEntry: false });
    hash.update(`${file}\0${stat?.size}\0${stat?.mtimeMs}\n`);
  }
  return hash.digest('hex');
}
if (statSync(stampPath, { throwIfNoEntry: false }) && readFileSync(stampPath, 'utf8') === fingerprint()) {
  if (process.argv.includes('--verbose')) process.stderr.write(`build-runtime: dist/ is up to date (nothing changed since its build) in ${Math.round(performance.now() - started)} ms\n`);
  process.exit(0);
}
const { build } = await import('esbuild');
const { keepImports, NODE_ESM_OPTIONS } = await import('./keepImports.mjs');
const sources = walk(srcDir).filter((f) => !browserDirs.some((d) => f.startsWith(`${d}/`)));
const entryPoints = sources.filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'));
const assets = sources.filter((f) => !f.endsWith('.ts'));
const keepImportsPlugin = keepImports({ root, compiled: ['src'], what: 'into dist/' });

const result = await build({
  absWorkingDir: root,
  entryPoints,
  outbase: srcDir,
  outdir: outDir,
  ...NODE_ESM_OPTIONS,
  plugins: [keepImportsPlugin],
  write: false,
});

/** Writes `data` only if it differs from what is there; a reader sees the old file or the new one. */
let written = 0;
function put(path, data) {
  try {
    if (Buffer.compare(readFileSync(path), data) === 0) return;
  } catch {
    // missing
  }
  mkdirSync(dirname(path), { recursive: true });
  const tmp = `${path}.${process.pid}.tmp`;
  writeFileSync(tmp, data);
  renameSync(tmp, path);
  written += 1;
}

const expected = new Set();
for (const file of result.outputFiles) {
  expected.add(file.path);
  put(file.path, Buffer.from(file.contents));
}
for (const asset of assets) {
  const out = join(outDir, relative(srcDir, asset));
  expected.add(out);
  put(out, readFileSync(asset));
}

// The explorer's browser bundle (about 0.1 s): the same function the router falls back on when
// no build has run (tsx, tests), so both serve the same files.
const explorerStarted = performance.now();
const { bundleExplorer } = await import(pathToFileURL(join(outDir, 'explorer', 'bundleExplorer.js')).href);
for (const [name, bytes] of Object.entries(await bundleExplorer())) {
  const out = join(outDir, 'explorer', 'assets', name);
  expected.add(out);
  put(out, bytes);
}
const explorerMs = Math.round(performance.now() - explorerStarted);

// Outputs of deleted or renamed sources would otherwise still be importable from dist/. Another
// build running at the same time may remove the same entries: a vanished entry is not an error.
let removed = 0;
const isOld = (path) => (statSync(path, { throwIfNoEntry: false })?.mtimeMs ?? Infinity) < Date.now() - 60_000; // a crashed build's
function prune(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) prune(path);
    else if (!expected.has(path) && (!path.endsWith('.tmp') || isOld(path))) {
      rmSync(path, { force: true });
      removed += 1;
    }
  }
  try {
    if (dir !== outDir && readdirSync(dir).length === 0) rmSync(dir, { recursive: true, force: true });
  } catch {
    // gone already
  }
}
expected.add(stampPath);
prune(outDir);
// Written last: a build that failed before this point runs again next time.
writeFileSync(stampPath, fingerprint());

if (process.argv.includes('--verbose')) {
  const ms = Math.round(performance.now() - started);
  process.stderr.write(`build-runtime: ${entryPoints.length} modules, ${assets.length} assets → dist/ (${written} written, ${removed} removed) in ${ms} ms (explorer bundle ${explorerMs} ms)\n`);
}

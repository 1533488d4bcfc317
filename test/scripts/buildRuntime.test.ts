// scripts/build-runtime.mjs: what `npm start|serve|index` compile src/ into and then run with
// plain node (no tsx). The output must mirror src/ file for file at the same depth, import no
// .ts file, carry the SQL migrations, and load with node alone. The explorer page's sources
// (browser code) are bundled into dist/explorer/assets/ instead, byte for byte what the router
// would bundle itself.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { before, describe, it } from 'node:test';

const root = resolve(import.meta.dirname, '..', '..');
const src = join(root, 'src');
const dist = join(root, 'dist');
/** Browser code: bundled for the page, not compiled file for file. */
const browserDir = join(src, 'explorer', 'page');
/** Where that bundle goes: JavaScript for a browser, not a Node module. */
const browserBundleDir = join(dist, 'explorer', 'assets');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

function runBuild(): { status: number | null; output: string; ms: number } {
  const started = Date.now();
  const r = spawnSync(process.execPath, ['scripts/build-runtime.mjs', '--verbose'], { cwd: root, encoding: 'utf8' });
  return { status: r.status, output: `${r.stdout}${r.stderr}`, ms: Date.now() - started };
}

/** Runs plain node (no tsx loader) in the repository root. */
function node(args: string[], env: Record<string, string> = {}) {
  return spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', env: { PATH: process.env.PATH, ...env }, timeout: 30_000 });
}

/** Every module specifier of an esbuild ESM output: static imports, re-exports, import(). */
const specifiersOf = (code: string) =>
  [...code.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s*)["']([^"']+)["']/gm)].map((m) => m[1]!);

describe('build-runtime', () => {
  let outputs: string[];
  before(() => {
    const build = runBuild();
    assert.equal(build.status, 0, build.output);
    outputs = files(dist);
  });

  it('emits one .js file with its source map per src/**/*.ts, at the same depth', () => {
    const missing = files(src)
      .filter((f) => f.endsWith('.ts') && !f.startsWith(`${browserDir}/`))
      .map((f) => join(dist, relative(src, f)).replace(/\.ts$/, '.js'))
      .filter((js) => !outputs.includes(js) || !outputs.includes(`${js}.map`));
    assert.deepEqual(missing.map((f) => relative(root, f)), []);
    const map = JSON.parse(readFileSync(join(dist, 'spec', 'specPaths.js.map'), 'utf8')) as { sources: string[] };
    assert.deepEqual(map.sources, ['../../src/spec/specPaths.ts'], 'stack traces map to src/');
  });

  it('imports no .ts file, and every relative import resolves inside dist/', () => {
    const wrong: string[] = [];
    for (const file of outputs.filter((f) => f.endsWith('.js') && !f.startsWith(`${browserBundleDir}/`))) {
      for (const spec of specifiersOf(readFileSync(file, 'utf8'))) {
        if (/\.[cm]?tsx?$/.test(spec)) wrong.push(`${relative(root, file)}: ${spec}`);
        else if (spec.startsWith('.') && !existsSync(resolve(dirname(file), spec))) wrong.push(`${relative(root, file)}: ${spec} (missing)`);
      }
    }
    assert.deepEqual(wrong, []);
    assert.ok(specifiersOf(readFileSync(join(dist, 'main.js'), 'utf8')).includes('./demo/openDemo.js'), 'the dynamic demo import is rewritten');
  });

  it('copies the SQL migrations next to the compiled migrate.js', () => {
    const sql = readdirSync(join(src, 'db', 'migrations')).filter((f) => f.endsWith('.sql'));
    assert.ok(sql.length > 0);
    for (const name of sql) {
      assert.equal(readFileSync(join(dist, 'db', 'migrations', name), 'utf8'), readFileSync(join(src, 'db', 'migrations', name), 'utf8'), name);
    }
  });

  it('compiled modules find the project files relative to themselves, as the sources do', async () => {
    const load = (path: string) => import(pathToFileURL(join(dist, path)).href);
    const specs = await load('spec/specPaths.js');
    assert.ok(existsSync(specs.openapiSpecPath) && existsSync(specs.openrpcSpecPath), specs.openapiSpecPath);
    assert.equal((await load('docs/docsPaths.js')).repoRoot, root);
    assert.equal((await load('db/migrate.js')).listMigrations().length, readdirSync(join(src, 'db', 'migrations')).filter((f) => f.endsWith('.sql')).length);
    assert.ok((await load('chain/contracts.js')).loadContract('Multicall3').abi.length > 0);
  });

  it('bundles the explorer page into dist/explorer/assets/, the same files the router would bundle, and compiles none of it for Node', async () => {
    const { bundleExplorer } = (await import(pathToFileURL(join(dist, 'explorer', 'bundleExplorer.js')).href)) as typeof import('../../src/explorer/bundleExplorer.ts');
    for (const [name, bytes] of Object.entries(await bundleExplorer())) {
      assert.ok(readFileSync(join(dist, 'explorer', 'assets', name)).equals(bytes), name);
    }
    assert.equal(existsSync(join(dist, 'explorer', 'page')), false);
  });

  it('every compiled module loads with plain node, without tsx', () => {
    const modules = outputs.filter((f) => f.endsWith('.js') && f !== join(dist, 'main.js') && !f.startsWith(`${browserBundleDir}/`)).map((f) => pathToFileURL(f).href);
    const r = node(['--input-type=module', '-e', `for (const m of ${JSON.stringify(modules)}) await import(m);`]);
    assert.equal(r.status, 0, r.stderr);
  });

  it('node dist/main.js loads all its modules, then refuses a bad configuration with its message', () => {
    const r = node(['dist/main.js', 'serve'], { PORT: 'notaport' });
    assert.equal(r.status, 1, `${r.stdout}${r.stderr}`);
    assert.match(r.stderr, /PORT="notaport": expected an integer/);
    assert.doesNotMatch(r.stderr, /ERR_MODULE_NOT_FOUND|ERR_UNKNOWN_FILE_EXTENSION/);
  });

  it('rewrites nothing when nothing changed, and removes outputs whose source is gone', () => {
    const stale = join(dist, 'stale-test', `gone-${process.pid}.js`);
    mkdirSync(dirname(stale), { recursive: true });
    writeFileSync(stale, 'export {};\n');
    const again = runBuild();
    assert.equal(again.status, 0, again.output);
    assert.match(again.output, /\(0 written, [01] removed\)/, again.output);
    assert.equal(existsSync(stale), false);
    assert.equal(existsSync(dirname(stale)), false, 'emptied folders go too');
  });

  it('skips the build when nothing changed since the last one, and builds again when a source or an output changed', () => {
    const built = runBuild();
    assert.equal(built.status, 0, built.output);
    const skipped = runBuild();
    assert.match(skipped.output, /dist\/ is up to date/, skipped.output);
    // A source touched (its content the same: nothing is rewritten for the other files using dist/).
    const source = join(root, 'src', 'main.ts');
    const { atime, mtime } = statSync(source);
    utimesSync(source, atime, new Date(mtime.getTime() + 1000));
    try {
      const again = runBuild();
      assert.match(again.output, /\(0 written, 0 removed\)/, `a touched source builds again: ${again.output}`);
    } finally {
      utimesSync(source, atime, mtime);
    }
    assert.match(runBuild().output, /\(0 written, 0 removed\)/, 'its mtime back is a change too');
    assert.match(runBuild().output, /up to date/);
    // An output gone from dist/ is made again (a source map: no other test process imports it).
    const output = join(dist, 'config', 'loadConfig.js.map');
    rmSync(output);
    assert.match(runBuild().output, /\(1 written, 0 removed\)/);
    assert.ok(existsSync(output));
  });
});

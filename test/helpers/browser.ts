// The browser every browser test uses: the Chromium that ships inside the npm package
// @sparticuz/chromium (pinned), driven by playwright-core. Nothing is downloaded and nothing
// from the system is needed: the package's compressed binary is unpacked once per machine into
// a directory named for its version under the system temp dir (about 8 s the first time).
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser } from 'playwright-core';

const require = createRequire(import.meta.url);

/** The launch flags: headless, no sandbox (tests may run as root), no background connections. */
export const BROWSER_ARGS = [
  '--headless',
  '--no-sandbox',
  '--no-zygote',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

function packageDir(): string {
  // The package's exports hide package.json; its entry lives in build/.
  return dirname(dirname(require.resolve('@sparticuz/chromium')));
}

/** Unpacks the package's Chromium (once, under a lock shared by parallel test files) and returns its path. */
export function chromiumExecutable(): string {
  const version = (JSON.parse(readFileSync(join(packageDir(), 'package.json'), 'utf8')) as { version: string }).version;
  const dir = join(tmpdir(), `token-api-chromium-${version}`);
  const executable = join(dir, 'chromium');
  if (existsSync(join(dir, 'unpacked'))) return executable;
  const lock = `${dir}.lock`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (existsSync(join(dir, 'unpacked'))) return executable;
      // A lock older than two minutes belongs to a process that died while unpacking.
      if (Date.now() > deadline || Date.now() - statSync(lock, { throwIfNoEntry: false })!.mtimeMs > 120_000) {
        rmSync(lock, { recursive: true, force: true });
        continue;
      }
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
    }
  }
  try {
    if (!existsSync(join(dir, 'unpacked'))) {
      rmSync(dir, { recursive: true, force: true });
      mkdirSync(dir, { recursive: true });
      // The package unpacks into os.tmpdir(): a child process whose TMPDIR is our directory.
      const script = `import('@sparticuz/chromium').then((m) => m.default.executablePath()).then((p) => process.stdout.write(p))`;
      const result = spawnSync(process.execPath, ['-e', script], { cwd: packageDir(), env: { ...process.env, TMPDIR: dir }, encoding: 'utf8' });
      if (result.status !== 0 || result.stdout !== executable) {
        throw new Error(`unpacking @sparticuz/chromium failed (exit ${result.status}): ${result.stdout}${result.stderr}`);
      }
      mkdirSync(join(dir, 'unpacked'));
    }
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return executable;
}

/** A headless Chromium from the npm package. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumExecutable(), args: BROWSER_ARGS });
}

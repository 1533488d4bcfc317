// npm run sdk [-- <generator-key> ...]: generates the SDKs declared in openapitools.json
// (typescript-fetch, python, go by default) into sdk-out/, which is gitignored.
// Needs Java and the openapi-generator jar (downloaded from Maven Central, or given with
// OPENAPI_GENERATOR_JAR=/path/to.jar); when either is missing it says so and exits 2,
// generating nothing. OPENAPITOOLS_CONFIG points at another openapitools.json (tests).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { repoRoot } from '../src/docs/docsPaths.ts';
import { sdkConfig } from './docs/sdkConfig.ts';
import { sdkPrerequisites } from './docs/sdkPrerequisites.ts';

async function sdk(): Promise<number> {
  const configPath = resolve(process.env.OPENAPITOOLS_CONFIG ?? join(repoRoot, 'openapitools.json'));
  const { generators, version, storageDir, jarPath, downloadUrl } = sdkConfig(configPath, repoRoot);
  const keys = process.argv.slice(2).length ? process.argv.slice(2) : Object.keys(generators);
  const unknown = keys.filter((k) => !(k in generators));
  if (unknown.length) {
    console.error(`unknown generator key(s) ${unknown.join(', ')}; openapitools.json declares ${Object.keys(generators).join(', ')}`);
    return 2;
  }
  const problems = await sdkPrerequisites({ version, storageDir, jarPath, downloadUrl, providedJar: process.env.OPENAPI_GENERATOR_JAR });
  if (problems.length) {
    console.error(`npm run sdk cannot generate ${keys.join(', ')}:\n- ${problems.join('\n- ')}`);
    return 2;
  }
  // Stale files from an earlier run would survive a regeneration; outputs live only under sdk-out/.
  for (const key of keys) {
    const out = resolve(repoRoot, generators[key]?.output ?? '');
    if (!relative(join(repoRoot, 'sdk-out'), out).startsWith('..')) rmSync(out, { recursive: true, force: true });
  }
  const cli = spawnSync('npx', ['--no-install', 'openapi-generator-cli', 'generate', '--openapitools', configPath, '--generator-key', ...keys], {
    cwd: repoRoot,
    stdio: 'inherit',
    // The CLI takes its working directory from PWD; skip its Maven search, the version is pinned.
    env: { ...process.env, PWD: repoRoot, OPENAPI_GENERATOR_CLI_SEARCH_URL: 'DEFAULT' },
  });
  return cli.status ?? 1;
}

process.exitCode = await sdk();

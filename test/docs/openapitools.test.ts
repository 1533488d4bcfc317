// openapitools.json against the CLI's own schema, generator outputs outside the tracked tree,
// and `npm run sdk`: a clear failure without the jar, and the real CLI -> java wiring with a
// stand-in jar (it only records its arguments; no SDK is produced or faked).
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { Ajv } from 'ajv';
import { repoRoot } from '../../src/docs/docsPaths.ts';
import { sdkConfig, type OpenapitoolsConfig } from '../../scripts/docs/sdkConfig.ts';
import { sdkPrerequisites } from '../../scripts/docs/sdkPrerequisites.ts';

const configPath = join(repoRoot, 'openapitools.json');
const config = JSON.parse(readFileSync(configPath, 'utf8')) as OpenapitoolsConfig;
const schemaPath = join(dirname(createRequire(import.meta.url).resolve('@openapitools/openapi-generator-cli/package.json')), 'config.schema.json');
const generators = Object.entries(config['generator-cli'].generators ?? {});
const scratch = mkdtempSync(join(tmpdir(), 'sdk-test-'));
const git = (...args: string[]) => spawnSync('git', args, { cwd: repoRoot, encoding: 'utf8' });

function runSdk(env: Record<string, string>, ...keys: string[]) {
  return spawnSync(process.execPath, ['--import', 'tsx', join(repoRoot, 'scripts', 'sdk.ts'), ...keys], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    timeout: 120_000,
  });
}

/** A copy of openapitools.json with its jar storage (and optionally outputs) in the scratch directory. */
function scratchConfig(name: string, change: (c: OpenapitoolsConfig) => void): string {
  const copy = structuredClone(config);
  copy['generator-cli'].storageDir = join(scratch, `${name}-jars`);
  change(copy);
  const path = join(scratch, `${name}.json`);
  writeFileSync(path, JSON.stringify(copy, null, 2));
  return path;
}

after(() => rmSync(scratch, { recursive: true, force: true }));

describe('openapitools.json', () => {
  it("is valid against the CLI package's config.schema.json", () => {
    const ajv = new Ajv({ strict: false, allErrors: true });
    const validate = ajv.compile(JSON.parse(readFileSync(schemaPath, 'utf8')));
    assert.ok(validate(config), JSON.stringify(validate.errors, null, 2));
    assert.match(config['generator-cli'].version, /^\d+\.\d+\.\d+$/, 'the generator version is pinned');
  });

  it('declares the typescript-fetch, python and go generators', () => {
    assert.deepEqual(generators.map(([, g]) => g.generatorName).sort(), ['go', 'python', 'typescript-fetch']);
  });

  for (const [key, generator] of generators) {
    it(`${key}: reads an existing spec and writes outside the tracked tree`, () => {
      assert.ok(generator.inputSpec && existsSync(resolve(repoRoot, generator.inputSpec)), `${key} inputSpec ${generator.inputSpec}`);
      const out = resolve(repoRoot, generator.output);
      assert.ok(out.startsWith(`${repoRoot}/`), `${key} writes outside the repository: ${out}`);
      assert.equal(git('check-ignore', '-q', '--no-index', generator.output).status, 0, `${generator.output} is not gitignored`);
      assert.equal(git('ls-files', '--', generator.output).stdout, '', `${generator.output} holds tracked files`);
    });
  }

  it('keeps the jar storage outside the repository', () => {
    const { storageDir } = sdkConfig(configPath, repoRoot);
    assert.ok(!storageDir.startsWith(`${repoRoot}/`) || git('check-ignore', '-q', '--no-index', storageDir).status === 0, storageDir);
  });
});

describe('npm run sdk', () => {
  it('says java is missing and how to get it', async () => {
    const problems = await sdkPrerequisites({
      version: '7.23.0',
      storageDir: scratch,
      jarPath: join(scratch, 'none.jar'),
      downloadUrl: 'http://127.0.0.1:9/x.jar',
      javaCommand: join(scratch, 'no-java-here'),
      canDownload: async () => true,
    });
    assert.equal(problems.length, 1);
    assert.match(problems[0] ?? '', /java not found.*JRE >= 11/s);
  });

  it('exits 2 naming the jar, Maven Central and OPENAPI_GENERATOR_JAR when the jar cannot be had, generating nothing', () => {
    const out = join(scratch, 'unreachable-out');
    const path = scratchConfig('unreachable', (c) => {
      c['generator-cli'].repository = { downloadUrl: 'http://127.0.0.1:9/${groupId}/${artifactId}/${versionName}.jar' };
      for (const g of Object.values(c['generator-cli'].generators ?? {})) g.output = join(out, g.generatorName);
    });
    const run = runSdk({ OPENAPITOOLS_CONFIG: path, OPENAPI_GENERATOR_JAR: '' });
    assert.equal(run.status, 2, run.stderr);
    assert.match(run.stderr, /jar is not at .*unreachable-jars\/7\.\d+\.\d+\.jar/);
    assert.match(run.stderr, /Maven Central is unreachable/);
    assert.match(run.stderr, /OPENAPI_GENERATOR_JAR=/);
    assert.equal(existsSync(out), false);
  });

  it('rejects an unknown generator key', () => {
    const run = runSdk({}, 'cobol');
    assert.equal(run.status, 2);
    assert.match(run.stderr, /unknown generator key\(s\) cobol/);
  });

  it('runs openapi-generator-cli generate through java with a provided jar', () => {
    // Stand-in generator: answers the CLI's command discovery (`help`, `completion`) and
    // records every other command line it is given; it writes nothing else.
    const src = join(scratch, 'stub');
    mkdirSync(src, { recursive: true });
    writeFileSync(
      join(src, 'Stub.java'),
      `public class Stub { public static void main(String[] a) throws Exception {
        String first = a.length > 0 ? a[0] : "";
        if (first.equals("help")) { System.out.println("usage: stub <command>\\n  generate    Generate code\\n  help    Display help"); return; }
        if (first.equals("completion")) { System.out.println("generate"); return; }
        java.nio.file.Files.writeString(java.nio.file.Path.of(System.getenv("STUB_LOG")), String.join("\\n", a) + "\\n",
          java.nio.file.StandardOpenOption.CREATE, java.nio.file.StandardOpenOption.APPEND); } }`,
    );
    execFileSync('javac', ['-d', src, join(src, 'Stub.java')]);
    const jar = join(scratch, 'stub.jar');
    execFileSync('jar', ['--create', '--file', jar, '--main-class', 'Stub', '-C', src, 'Stub.class']);
    const out = join(scratch, 'stub-out');
    const path = scratchConfig('stub', (c) => {
      for (const g of Object.values(c['generator-cli'].generators ?? {})) g.output = join(out, g.generatorName);
    });
    const log = join(scratch, 'stub.log');
    const run = runSdk({ OPENAPITOOLS_CONFIG: path, OPENAPI_GENERATOR_JAR: jar, STUB_LOG: log }, 'typescript-fetch', 'go');
    assert.equal(run.status, 0, `${run.stdout}\n${run.stderr}`);
    const args = readFileSync(log, 'utf8');
    assert.equal(args.match(/^generate$/gm)?.length, 2, args);
    assert.match(args, /^--generator-name=typescript-fetch$/m);
    assert.match(args, /^--generator-name=go$/m);
    assert.doesNotMatch(args, /python/);
    assert.equal(args.match(/^--input-spec=spec\/openapi\.yaml$/gm)?.length, 2, args);
    assert.ok(args.includes(`--output=${join(out, 'go')}`), args);
  });
});

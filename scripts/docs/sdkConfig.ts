import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { createRequire } from 'node:module';

export type GeneratorConfig = { generatorName: string; inputSpec?: string; glob?: string; output: string; additionalProperties?: Record<string, unknown> };
export type OpenapitoolsConfig = {
  'generator-cli': {
    version: string;
    storageDir?: string;
    repository?: { downloadUrl?: string };
    generators?: Record<string, GeneratorConfig>;
  };
};

const defaultDownloadUrl = 'https://repo1.maven.org/maven2/${groupId}/${artifactId}/${versionName}/${artifactId}-${versionName}.jar';

/** openapitools.json and where openapi-generator-cli will look for (and fetch) its generator jar. */
export function sdkConfig(configPath: string, cwd: string) {
  const config = JSON.parse(readFileSync(configPath, 'utf8')) as OpenapitoolsConfig;
  const cli = config['generator-cli'];
  const packageDir = dirname(createRequire(import.meta.url).resolve('@openapitools/openapi-generator-cli/package.json'));
  // The CLI's own rule: storageDir relative to its working directory, "~" = home; else its versions/ folder.
  const storageDir = cli.storageDir ? resolve(cwd, cli.storageDir.replace('~', homedir())) : join(packageDir, 'versions');
  const downloadUrl = (cli.repository?.downloadUrl ?? defaultDownloadUrl)
    .replaceAll('${groupId}', 'org/openapitools')
    .replaceAll('${artifactId}', 'openapi-generator-cli')
    .replaceAll('${versionName}', cli.version);
  return { config, version: cli.version, generators: cli.generators ?? {}, storageDir, jarPath: join(storageDir, `${cli.version}.jar`), downloadUrl };
}

import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';

export type SdkPrerequisiteInput = {
  version: string;
  storageDir: string;
  jarPath: string;
  downloadUrl: string;
  /** A pre-downloaded generator jar to install into storageDir (OPENAPI_GENERATOR_JAR). */
  providedJar?: string;
  javaCommand?: string;
  /** Whether the jar can be fetched; by default a HEAD request with a short timeout. */
  canDownload?: (url: string) => Promise<true | string>;
};

/**
 * What stops openapi-generator-cli from running here, as messages saying how to fix it
 * (empty when Java runs and the jar is present or downloadable). Installs a provided jar.
 */
export async function sdkPrerequisites(input: SdkPrerequisiteInput): Promise<string[]> {
  const problems: string[] = [];
  const java = spawnSync(input.javaCommand ?? 'java', ['-version'], { encoding: 'utf8' });
  if (java.error || java.status !== 0) {
    problems.push(
      `java not found (${java.error?.message ?? `exit ${java.status}`}): openapi-generator is a Java program and needs a JRE >= 11 on PATH, e.g. apt-get install -y default-jre-headless.`,
    );
  }
  if (input.providedJar) {
    if (!existsSync(input.providedJar)) return [...problems, `OPENAPI_GENERATOR_JAR=${input.providedJar} does not exist.`];
    mkdirSync(input.storageDir, { recursive: true });
    copyFileSync(input.providedJar, input.jarPath);
  }
  if (!existsSync(input.jarPath)) {
    const reachable = await (input.canDownload ?? headRequest)(input.downloadUrl);
    if (reachable !== true) {
      problems.push(
        [
          `the openapi-generator-cli ${input.version} jar is not at ${input.jarPath} and cannot be downloaded from ${input.downloadUrl} (${reachable}): Maven Central is unreachable from here.`,
          'Provide the jar, fetched where Maven Central is reachable (the URL above), either with',
          `  OPENAPI_GENERATOR_JAR=/path/to/openapi-generator-cli-${input.version}.jar npm run sdk`,
          `or by copying it to ${input.jarPath} (the "storageDir" of openapitools.json, named <version>.jar),`,
          'or point "generator-cli.repository.downloadUrl" in openapitools.json at a reachable Maven mirror.',
        ].join('\n'),
      );
    }
  }
  return problems;
}

async function headRequest(url: string): Promise<true | string> {
  try {
    const res = await fetch(url, { method: 'HEAD', signal: AbortSignal.timeout(5000) });
    return res.ok ? true : `HTTP ${res.status}`;
  } catch (error) {
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    return cause?.code ?? cause?.message ?? (error as Error).message;
  }
}

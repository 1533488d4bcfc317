// Runs test files, each in a `node --test` process of its own, at most `concurrency` at a time and
// in the order given. node's runner sorts the files it is given by path, whatever their order on
// its command line, so it cannot run the files that measure a budget in their order, nor the
// longest files first; this queue does both. Each process's output is printed whole when it ends,
// so that the files' reports do not interleave.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs `files` in order, at most `concurrency` processes at a time: `node ...args --test
 * <reporters> file`, the summary reporter writing to `<summaryDir>/<prefix>-<i>.jsonl`. Resolves
 * to the summary files written, the first non-zero exit status (0 when every process passed) and
 * the files whose process did not pass.
 */
export async function runTestQueue(files, { concurrency, args, env, summaryDir, prefix }) {
  const summaryFiles = [];
  const failedFiles = [];
  let status = 0;
  let next = 0;
  // Each process is a run of its own, also when the queue itself runs inside a test.
  const { NODE_TEST_CONTEXT: _, ...ownEnv } = env;
  const runOne = (file, i) =>
    new Promise((resolve) => {
      const summaryFile = join(summaryDir, `${prefix}-${i}.jsonl`);
      summaryFiles.push(summaryFile);
      const child = spawn(
        process.execPath,
        [
          ...args, '--test',
          '--test-reporter=spec', '--test-reporter-destination=stdout',
          '--test-reporter=./scripts/testSummaryReporter.mjs', `--test-reporter-destination=${summaryFile}`,
          file,
        ],
        { stdio: ['ignore', 'pipe', 'pipe'], env: ownEnv },
      );
      const out = [];
      child.stdout.on('data', (c) => out.push(c));
      child.stderr.on('data', (c) => out.push(c));
      child.on('close', (code, signal) => {
        process.stdout.write(Buffer.concat(out));
        if (code !== 0) {
          status ||= code ?? 1;
          failedFiles.push(`${file} (${signal ? `ended by ${signal}` : `exit code ${code}`})`);
        }
        resolve();
      });
    });
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      await runOne(files[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(concurrency, files.length)) }, worker));
  return { summaryFiles, status, failedFiles };
}

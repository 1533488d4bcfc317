// Runs test files, each in a `node --test` process of its own, at most `concurrency` at a time and
// in the order given. node's runner sorts the files it is given by path, whatever their order on
// its command line, so it cannot run the files that measure a budget in their order, nor the
// longest files first; this queue does both. A line says when each process starts; the rest of its
// output is printed whole when it ends, so that the files' reports do not interleave.
import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs `files` in order, at most `concurrency` processes at a time: `node ...args --test
 * <reporters> file`, the summary reporter writing to `<summaryDir>/<prefix>-<i>.jsonl`, the
 * output to `write` (stdout by default). Resolves to the summary files written, the first non-zero
 * exit status (0 when every process passed) and the files whose process did not pass.
 */
export async function runTestQueue(files, { concurrency, args, env, summaryDir, prefix, write = (text) => process.stdout.write(text) }) {
  if (!Number.isInteger(concurrency) || concurrency < 1) throw new Error(`concurrency must be a whole number of processes, at least 1 (got ${concurrency})`);
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
      write(`▷ ${file}\n`);
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
      let ended = false;
      const failed = (why, code) => {
        if (ended) return;
        ended = true;
        status ||= code;
        failedFiles.push(`${file} (${why})`);
      };
      child.on('error', (error) => {
        failed(`not started: ${error.message}`, 1);
        resolve();
      });
      child.on('close', (code, signal) => {
        if (out.length > 0) write(Buffer.concat(out).toString());
        if (code !== 0) failed(signal ? `ended by ${signal}` : `exit code ${code}`, code ?? 1);
        resolve();
      });
    });
  const worker = async () => {
    while (next < files.length) {
      const i = next++;
      await runOne(files[i], i);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, files.length) }, worker));
  return { summaryFiles, status, failedFiles };
}

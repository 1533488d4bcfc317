// The index benches' child processes (a simulator, `npm run index`) do not outlive a bench that
// ends on an error: one left behind mined blocks and took CPU from the next run.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';

const processes = fileURLToPath(new URL('../../bench/index/processes.ts', import.meta.url));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

test('a child of startChild is killed when the bench process exits on an uncaught error', async () => {
  const script = `
    import { startChild } from ${JSON.stringify(processes)};
    const child = startChild(process.execPath, ['-e', 'setInterval(() => {}, 1000)']);
    console.log('child=' + child.process.pid);
    setTimeout(() => { throw new Error('the bench failed'); }, 200);
  `;
  const run = spawnSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 20_000 });
  assert.notEqual(run.status, 0, 'the bench process failed');
  assert.match(run.stderr, /the bench failed/);
  const pid = Number(/child=(\d+)/.exec(run.stdout)?.[1]);
  assert.ok(pid > 0, run.stdout + run.stderr);
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 50));
  assert.equal(alive(pid), false, `child ${pid} still runs after the bench exited`);
});

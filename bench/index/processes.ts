// Child processes of the index bench: the simulator (its url/preset/truth lines read from its
// output) and `npm run index` as its package script runs it, with each one's peak RSS and CPU
// time read from /proc while it lives.
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';

export type Child = { process: ChildProcess; output: () => string; peakRssMb: () => number; cpuSeconds: () => number; stop: () => Promise<void> };

function procStats(pid: number | undefined) {
  if (pid === undefined) return { hwmKb: 0, cpu: 0 };
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const hwmKb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return { hwmKb, cpu: (Number(fields[11]) + Number(fields[12])) / 100 };
  } catch {
    return null;
  }
}

export function startChild(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): Child {
  const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  // A bench that ends on an error (an assertion, a child that exited) leaves no child running:
  // a simulator left behind mined blocks and took CPU from the next run.
  const orphaned = () => void (child.exitCode === null && child.signalCode === null && child.kill('SIGKILL'));
  process.once('exit', orphaned);
  child.once('exit', () => process.removeListener('exit', orphaned));
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  let peak = 0;
  let cpu = 0;
  const sample = () => {
    const s = procStats(child.pid);
    if (s) [peak, cpu] = [Math.max(peak, s.hwmKb), Math.max(cpu, s.cpu)];
  };
  const timer = setInterval(sample, 500);
  return {
    process: child,
    output: () => out,
    peakRssMb: () => (sample(), peak / 1024),
    cpuSeconds: () => (sample(), cpu),
    stop: () => new Promise<void>((resolve) => {
      sample();
      clearInterval(timer);
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}

/** Resolves once `pattern` appears in the child's output (rejects if it exits first or after `ms`). */
export function waitFor(child: Child, pattern: RegExp, ms: number): Promise<RegExpExecArray> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const timer = setInterval(() => {
      const match = pattern.exec(child.output());
      if (match) {
        clearInterval(timer);
        resolve(match);
      } else if (child.process.exitCode !== null || Date.now() - started > ms) {
        clearInterval(timer);
        reject(new Error(`no ${pattern} in the output:\n${child.output().slice(-2000)}`));
      }
    }, 100);
  });
}

// Reads a package.json script of the form `node <build> && [NAME=value …] exec node <args>`, so
// the benchmark and the entry-point test start the service exactly as `npm start|serve` does.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export type NodeScript = {
  /** Node arguments of each command before the last `&&` (the build), in order. */
  prepare: string[][];
  /** Environment assignments in front of the last command. */
  env: Record<string, string>;
  /** Node flags of the last command, before its entry point. */
  flags: string[];
  /** The entry point (first non-flag argument) and what follows it. */
  entry: string;
  args: string[];
};

const ASSIGNMENT = /^([A-Za-z_][A-Za-z0-9_]*)=(\S*)$/;

export function readNodeScript(root: string, name: string): NodeScript {
  const scripts = (JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  const text = scripts[name];
  if (!text) throw new Error(`package.json has no "${name}" script`);
  const nodeArgs = (command: string, env?: Record<string, string>): string[] => {
    const words = command.trim().split(/\s+/).filter((w) => w && w !== 'exec');
    let i = 0;
    for (let m: RegExpExecArray | null; i < words.length && (m = ASSIGNMENT.exec(words[i]!)); i++) {
      if (!env) throw new Error(`package.json "${name}": environment assignments only before the last command: ${text}`);
      env[m[1]!] = m[2]!;
    }
    if (words[i] !== 'node') throw new Error(`package.json "${name}" should run node: ${text}`);
    return words.slice(i + 1);
  };
  const commands = text.split('&&');
  const env: Record<string, string> = {};
  const last = nodeArgs(commands.at(-1)!, env);
  const entryAt = last.findIndex((w) => !w.startsWith('-'));
  if (entryAt < 0) throw new Error(`package.json "${name}" names no entry point: ${text}`);
  return {
    prepare: commands.slice(0, -1).map((c) => nodeArgs(c)),
    env,
    flags: last.slice(0, entryAt),
    entry: last[entryAt]!,
    args: last.slice(entryAt + 1),
  };
}

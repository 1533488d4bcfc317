// Summarises a V8 .cpuprofile (node --cpu-prof): top functions by self time, and time by
// package (self, and inclusive: a sample counts for every package on its stack).
import { readFileSync } from 'node:fs';

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type ProfileNode = { id: number; callFrame: CallFrame; hitCount?: number; children?: number[] };
type CpuProfile = { nodes: ProfileNode[]; startTime: number; endTime: number; samples: number[]; timeDeltas: number[] };

export type ProfileRow = { name: string; ms: number; share: number };
export type ProfileSummary = {
  totalMs: number;
  /** Time not idle: what the process spent working. */
  busyMs: number;
  topSelf: ProfileRow[];
  packagesSelf: ProfileRow[];
  packagesInclusive: ProfileRow[];
};

/** Which package or part of the app a frame belongs to. */
export function categoryOf(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === '(garbage collector)') return '(garbage collector)';
    if (functionName === '(idle)') return '(idle)';
    if (functionName === '(program)') return '(program: native, outside JS)';
    if (functionName === '(root)') return '(root)';
    return '(native)';
  }
  const nm = url.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const rest = url.slice(nm + '/node_modules/'.length).split('/');
    return rest[0]?.startsWith('@') ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  if (url.startsWith('node:')) {
    const m = url.replace(/^node:(internal\/)?/, '').split('/');
    return `node:${m[0] === 'deps' ? m[1] : m[0]}`.replace(/\.js$/, '');
  }
  const src = url.indexOf('/src/');
  if (src >= 0) return `app ${url.slice(src + 1).split('/').slice(0, 2).join('/')}`;
  return url.replace(/^file:\/\//, '');
}

function frameName(frame: CallFrame): string {
  const where = frame.url ? `${frame.url.replace(/^.*\/node_modules\//, '').replace(/^file:\/\/.*?\/(src|bench)\//, '$1/')}:${frame.lineNumber + 1}` : '';
  return `${frame.functionName || '(anonymous)'}${where ? ` ${where}` : ''}`;
}

export function summariseProfile(path: string, top = 25): ProfileSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0));
  }
  let totalUs = 0;
  let idleUs = 0;
  const fnSelf = new Map<string, number>();
  const pkgSelf = new Map<string, number>();
  const pkgIncl = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, v: number) => m.set(k, (m.get(k) ?? 0) + v);
  for (const [id, us] of selfUs) {
    const node = byId.get(id);
    if (!node) continue;
    totalUs += us;
    const cat = categoryOf(node.callFrame);
    if (cat === '(idle)') {
      idleUs += us;
      continue;
    }
    add(fnSelf, frameName(node.callFrame), us);
    add(pkgSelf, cat, us);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const f = byId.get(cur);
      if (!f) break;
      const c = categoryOf(f.callFrame);
      if (c === '(root)' || seen.has(c)) continue;
      seen.add(c);
      add(pkgIncl, c, us);
    }
  }
  const busyUs = totalUs - idleUs;
  const rows = (m: Map<string, number>, n: number): ProfileRow[] =>
    [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n).map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: busyUs ? Math.round((us / busyUs) * 1000) / 10 : 0 }));
  return {
    totalMs: Math.round(totalUs / 1000),
    busyMs: Math.round(busyUs / 1000),
    topSelf: rows(fnSelf, top),
    packagesSelf: rows(pkgSelf, 20),
    packagesInclusive: rows(pkgIncl, 25),
  };
}

export function renderProfile(title: string, s: ProfileSummary): string {
  const table = (head: string, rows: ProfileRow[]) =>
    [`| ${head} | ms | % of busy |`, '| --- | ---: | ---: |', ...rows.map((r) => `| ${r.name.replaceAll('|', '\\|')} | ${r.ms} | ${r.share} |`)].join('\n');
  return [
    `### ${title}`,
    '',
    `Sampled ${s.totalMs} ms, busy (not idle) ${s.busyMs} ms.`,
    '',
    table('Package, inclusive (sample counted once per package on its stack)', s.packagesInclusive),
    '',
    table('Package, self time', s.packagesSelf),
    '',
    table('Function, self time', s.topSelf),
    '',
  ].join('\n');
}

export type LongTask = {
  /** ms from the profile's start. */
  atMs: number;
  ms: number;
  /** The outermost frame of the application (not Node's, not a package's) the samples share. */
  frame: string;
  /** Functions by self time within the stretch. */
  topSelf: ProfileRow[];
};

/**
 * Stretches of at least `minMs` in which every sample ran under the same call of the same
 * application frame (the outermost one of src/ or the bundle: one node of the call tree): a
 * synchronous piece of work that held the event loop, however busy the process was around it (at
 * saturation a process is never idle, so idle samples cannot delimit its tasks; requests served
 * one after another go through different frames). Samples outside any application frame (the
 * HTTP parser, garbage collection, idle) end a stretch, except garbage collection inside it.
 */
export function findLongTasks(path: string, minMs: number, top = 8): LongTask[] {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const isApp = (f: CallFrame) => categoryOf(f).startsWith('app ') || (!f.url.includes('/node_modules/') && /\/dist\/.+\.js$/.test(f.url));
  const outerApp = new Map<number, number | undefined>();
  const outerAppOf = (id: number): number | undefined => {
    if (outerApp.has(id)) return outerApp.get(id);
    let found: number | undefined;
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const node = byId.get(cur);
      if (node && isApp(node.callFrame)) found = cur;
    }
    outerApp.set(id, found);
    return found;
  };
  const tasks: LongTask[] = [];
  let run: { key: number; startUs: number; us: number; self: Map<string, number> } | undefined;
  const close = () => {
    if (run && run.us >= minMs * 1000) {
      const rows = [...run.self.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
      tasks.push({
        atMs: Math.round(run.startUs / 1000),
        ms: Math.round(run.us / 1000),
        frame: frameName(byId.get(run.key)!.callFrame),
        topSelf: rows.map(([name, us]) => ({ name, ms: Math.round(us / 100) / 10, share: Math.round((us / run!.us) * 1000) / 10 })),
      });
    }
    run = undefined;
  };
  let atUs = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] as number;
    const deltaUs = profile.timeDeltas[i] ?? 0;
    atUs += deltaUs;
    const node = byId.get(id);
    if (!node) continue;
    if (node.callFrame.functionName === '(garbage collector)' && run) {
      run.us += deltaUs;
      run.self.set('(garbage collector)', (run.self.get('(garbage collector)') ?? 0) + deltaUs);
      continue;
    }
    const key = outerAppOf(id);
    if (key === undefined || key !== run?.key) {
      close();
      if (key === undefined) continue;
      run = { key, startUs: atUs - deltaUs, us: 0, self: new Map() };
    }
    run.us += deltaUs;
    const name = frameName(node.callFrame);
    run.self.set(name, (run.self.get(name) ?? 0) + deltaUs);
  }
  close();
  return tasks;
}

export function renderLongTasks(title: string, tasks: readonly LongTask[]): string {
  const lines = [`### ${title}`, '', `${tasks.length} stretches.`, ''];
  for (const t of tasks) {
    lines.push(`- at ${(t.atMs / 1000).toFixed(1)} s, ${t.ms} ms under \`${t.frame}\`: ${t.topSelf.map((r) => `${r.name} ${r.ms} ms`).join('; ')}`);
  }
  return `${lines.join('\n')}\n`;
}

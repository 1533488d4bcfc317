// TEST_PROFILE=<file> npm test: where each test file's time goes, as a tab-separated table sorted
// by wall time: the file's process in all (wall); outside its tests (process start, module
// loading, file-level hooks); its suites' hooks (before/after: the set-up and teardown of shared
// fixtures); its tests' own time (the leaves: what asserts); and its number of tests.
import { writeFileSync } from 'node:fs';

const s = (ms) => (ms / 1000).toFixed(1);

export function writeProfile(path, fileEntries, entries) {
  const rows = fileEntries.map(({ file, ms }) => {
    const mine = entries.filter((e) => e.file === file && e.skip === null);
    const top = mine.filter((e) => e.nesting === 0).reduce((sum, e) => sum + e.ms, 0);
    const leaves = mine.filter((e) => e.leaf);
    const tests = leaves.reduce((sum, e) => sum + e.ms, 0);
    return { file, wall: ms, outside: Math.max(0, ms - top), hooks: Math.max(0, top - tests), tests, count: leaves.length };
  });
  rows.sort((a, b) => b.wall - a.wall);
  const lines = [
    'file\twall s\toutside tests s\tsuite hooks s\ttests s\ttests',
    ...rows.map((r) => `${r.file}\t${s(r.wall)}\t${s(r.outside)}\t${s(r.hooks)}\t${s(r.tests)}\t${r.count}`),
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
  console.log(`profile of ${rows.length} files written to ${path}`);
}

// A node:test reporter that writes one JSON line per finished test or suite: its name, file (from
// test/ on, as .ts), nesting, duration, whether it failed, whether it is a leaf (a test, not a
// suite), and its skip reason; and one line per file (`kind: 'file'`) with its process's whole
// time. scripts/run-tests.mjs reads it to report skips, the slowest files and the profile.

// A file's key: its path from test/ on, as .ts (the compiled runs report the process by its .js
// output and the tests in it by their mapped source).
const keyOf = (file) => `test/${file.slice(file.lastIndexOf('/test/') + 6).replace(/\.js$/, '.ts')}`;

export default async function* testSummaryReporter(source) {
  /** Per file and nesting, the children finished since the last test at that nesting. */
  const children = new Map();
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail' && event.type !== 'test:complete') continue;
    const { name, file: path, skip, nesting, details } = event.data;
    if (!path) continue;
    const file = keyOf(path);
    const ms = Math.round(details?.duration_ms ?? 0);
    if (name === path && nesting === 0) {
      if (event.type === 'test:complete') yield `${JSON.stringify({ kind: 'file', file, ms })}\n`;
      continue;
    }
    if (event.type === 'test:complete') continue;
    // Children finish before their parent: a test with children finished below it is a suite.
    let counts = children.get(file);
    if (!counts) children.set(file, (counts = []));
    const leaf = !(counts[nesting + 1] > 0);
    counts[nesting + 1] = 0;
    counts[nesting] = (counts[nesting] ?? 0) + 1;
    yield `${JSON.stringify({ name, file, nesting, ms, leaf, failed: event.type === 'test:fail', skip: skip === undefined ? null : String(skip) })}\n`;
  }
}

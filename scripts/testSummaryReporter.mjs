// A node:test reporter that writes one JSON line per finished test or suite: its name, file (from
// test/ on, as .ts), nesting, duration, whether it failed, whether it is a leaf (a test, not a
// suite), and its skip reason; and one line per file (`kind: 'file'`) with its process's whole
// time; a failed test's line carries its error's message. scripts/run-tests.mjs reads it to report
// skips, failures, the slowest files and the profile. A bundle's process (scripts/testBundles.mjs)
// runs each of its files in a top-level suite named after the file: node reports its tests under
// their own file, one level deeper than alone (the files TEST_BUNDLED_FILES lists, as keys: reported
// one level up here); the suite as that file (`ms`: the suite's time); the bundle's process as a file
// with `bundle: true`.

// A file's key: its path from test/ on, as .ts (the compiled runs report the process by its .js
// output and the tests in it by their mapped source).
const keyOf = (file) => `test/${file.slice(file.lastIndexOf('/test/') + 6).replace(/\.js$/, '.ts')}`;
const isBundle = (path) => path.includes('/test/bundles/');
const FILE_SUITE = /^test\/.+\.test\.ts$/;
/** A failure's message on one line, at most 300 characters (node wraps it: the cause is the test's own error). */
const messageOf = (error) => {
  const own = error?.cause instanceof Error ? error.cause : error;
  const text = String(own?.message ?? own ?? 'failed').replace(/\s+/g, ' ').trim();
  return text.length > 300 ? `${text.slice(0, 299)}…` : text;
};

export default async function* testSummaryReporter(source) {
  const bundled = new Set(JSON.parse(process.env.TEST_BUNDLED_FILES ?? '[]'));
  /** Per file and nesting, the children finished since the last test at that nesting. */
  const children = new Map();
  /** Files with a failed test reported (a bundled file's failed suite then adds nothing). */
  const failed = new Set();
  const lineOf = (event, file, nesting, ms) => {
    const { name, skip } = event.data;
    // Children finish before their parent: a test with children finished below it is a suite.
    let counts = children.get(file);
    if (!counts) children.set(file, (counts = []));
    const leaf = !(counts[nesting + 1] > 0);
    counts[nesting + 1] = 0;
    counts[nesting] = (counts[nesting] ?? 0) + 1;
    if (event.type === 'test:fail') failed.add(file);
    const error = event.type === 'test:fail' ? { error: messageOf(event.data.details?.error) } : {};
    return `${JSON.stringify({ name, file, nesting, ms, leaf, failed: event.type === 'test:fail', skip: skip === undefined ? null : String(skip), ...error })}\n`;
  };
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail' && event.type !== 'test:complete') continue;
    const { name, file: path, nesting, details } = event.data;
    if (!path) continue;
    const file = keyOf(path);
    const ms = Math.round(details?.duration_ms ?? 0);
    if (name === path && nesting === 0) {
      if (event.type === 'test:complete') yield `${JSON.stringify({ kind: 'file', file, ms, ...(isBundle(path) ? { bundle: true } : {}) })}\n`;
      continue;
    }
    if (event.type === 'test:complete') continue;
    if (isBundle(path) && nesting === 0 && FILE_SUITE.test(name)) {
      // A bundled file's suite: the file's time; its failure (a hook's) is the file's.
      yield `${JSON.stringify({ kind: 'file', file: name, ms, bundled: file })}\n`;
      if (event.type === 'test:fail' && !failed.has(name)) yield lineOf(event, name, 0, ms);
      continue;
    }
    yield lineOf(event, file, bundled.has(file) ? nesting - 1 : nesting, ms);
  }
}

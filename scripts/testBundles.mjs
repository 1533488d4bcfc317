// Several light test files in one process: each node:test file otherwise pays a process of its own,
// the app's modules loaded again and the request validator compiled again (seconds of CPU per file
// on 2 cores). A compiled test file is rewritten so that importing it only defines a function that
// registers its tests; a bundle imports several and calls each inside a suite named after its
// source path, so that a file's top-level hooks stay its own (they become that suite's hooks) and
// its tests run as they do alone, one file after another. Files with top-level await cannot be
// wrapped and keep their own process. The reporter (testSummaryReporter.mjs) maps the suites back
// to their files.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { transformSync } from 'esbuild';

/** How long a bundle's process may live on after its tests before it is ended as hung. */
const LINGER_MS = 30_000;

/** The registration function a wrapped file exports by default. */
const REGISTER = '__registerTestFile';

/**
 * Rewrites the compiled test file at `jsPath` into `export default function register() { …body… }`
 * with its imports kept on top, line for line (the source map still holds). False, and the file
 * left as it was, when it has top-level await.
 */
export function wrapTestFile(jsPath) {
  const code = readFileSync(jsPath, 'utf8');
  try {
    transformSync(code, { format: 'esm', loader: 'js', supported: { 'top-level-await': false }, logLevel: 'silent' });
  } catch {
    return false;
  }
  const lines = code.split('\n');
  let i = 0;
  let inImport = false;
  for (; i < lines.length; i++) {
    const line = lines[i];
    if (inImport) {
      if (/;\s*$/.test(line)) inImport = false;
      continue;
    }
    if (/^\s*(\/\/.*)?$/.test(line)) continue;
    if (/^import[\s{*"']/.test(line)) {
      inImport = !/;\s*$/.test(line);
      continue;
    }
    break;
  }
  let end = lines.length;
  while (end > i && /^\s*(\/\/# sourceMappingURL=.*)?$/.test(lines[end - 1])) end--;
  // An import below other statements (or an export) cannot move into a function.
  if (/^\s*(export\b|import[\s{*"'])/m.test(lines.slice(i, end).join('\n'))) return false;
  const body = lines.slice(i, end);
  if (body.length === 0) return false;
  body[0] = `export default function ${REGISTER}() {${body[0]}`;
  body[body.length - 1] = `${body[body.length - 1]}\n}`;
  writeFileSync(jsPath, [...lines.slice(0, i), ...body, ...lines.slice(end)].join('\n'));
  return true;
}

/**
 * Splits `files` ({ source, weight }) into at most `count` groups of similar weight (the longest
 * first, each into the lightest group).
 */
export function groupByWeight(files, count) {
  const groups = Array.from({ length: Math.min(count, files.length) }, () => ({ files: [], weight: 0 }));
  for (const f of [...files].sort((a, b) => b.weight - a.weight || a.source.localeCompare(b.source))) {
    const lightest = groups.reduce((a, b) => (b.weight < a.weight ? b : a));
    lightest.files.push(f);
    lightest.weight += f.weight;
  }
  for (const g of groups) g.files.sort((a, b) => a.source.localeCompare(b.source));
  return groups.filter((g) => g.files.length > 0);
}

/** Writes the bundle entry `path` that runs each wrapped file ({ source, js }) in a suite of its own. */
export function writeBundle(path, files) {
  mkdirSync(dirname(path), { recursive: true });
  const rel = (js) => {
    const r = relative(dirname(path), js);
    return r.startsWith('.') ? r : `./${r}`;
  };
  const lines = [
    `// A bundle of test files (scripts/testBundles.mjs): ${files.length} files in one process.`,
    `import { after, describe } from 'node:test';`,
    ...files.map((f, i) => `import f${i} from ${JSON.stringify(rel(f.js))};`),
    // A file that leaves a socket or a timer behind would keep the process, and the run, waiting
    // until the runner's timeout (node runs the root's own after hooks only once the event loop is
    // empty): after the last file's own after hooks, say what is left, and end. (A process whose
    // event loop spins never runs this timer: the runner's timeout still ends it.)
    `const linger = () => setTimeout(() => {`,
    `  const left = [...process._getActiveHandles(), ...process._getActiveRequests()].map((h) => h.constructor.name + (h.remotePort ? ' to port ' + h.remotePort : '') + (h.localPort ? ' from port ' + h.localPort : ''));`,
    `  console.error('the bundle ${relative(dirname(dirname(path)), path)} did not exit ${LINGER_MS / 1000} s after its tests: ' + left.join(', '));`,
    `  process.exit(1);`,
    `}, ${LINGER_MS}).unref();`,
    ...files.map((f, i) => `describe(${JSON.stringify(f.source)}, () => {\n  f${i}();${i === files.length - 1 ? '\n  after(linger);' : ''}\n});`),
  ];
  writeFileSync(path, `${lines.join('\n')}\n`);
  return path;
}

export const bundlePath = (outDir, n) => join(outDir, 'test', 'bundles', `bundle-${n}.test.js`);

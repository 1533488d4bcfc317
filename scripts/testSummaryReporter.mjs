// A node:test reporter that writes one JSON line per finished test or suite: its name, file,
// nesting, duration, whether it failed, and its skip reason. scripts/run-tests.mjs reads it to
// report skips and the slowest files.
export default async function* testSummaryReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, file, skip, nesting, details } = event.data;
    const ms = Math.round(details?.duration_ms ?? 0);
    yield `${JSON.stringify({ name, file, nesting, ms, failed: event.type === 'test:fail', skip: skip === undefined ? null : String(skip) })}\n`;
  }
}

// A node:test reporter that writes one JSON line per finished test or suite: its name, file,
// whether it failed, and its skip reason. scripts/run-tests.mjs reads it to report skips.
export default async function* testSummaryReporter(source) {
  for await (const event of source) {
    if (event.type !== 'test:pass' && event.type !== 'test:fail') continue;
    const { name, file, skip } = event.data;
    yield `${JSON.stringify({ name, file, failed: event.type === 'test:fail', skip: skip === undefined ? null : String(skip) })}\n`;
  }
}

// The run's demo snapshot directory (scripts/run-tests.mjs sets TEST_DEMO_SNAPSHOT_DIR; its first
// start in test/main/npmStart.test.ts saves the snapshot there), or this process's own when a file
// runs alone (the first open builds it there). Read it into a chain of your own (openDemo); copy
// it before deleting, corrupting or editing anything in it.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const runSnapshotDir = process.env.TEST_DEMO_SNAPSHOT_DIR ?? join(mkdtempSync(join(tmpdir(), 'demo-snapshot-')), 'snapshot');

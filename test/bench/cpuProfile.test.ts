// The bench's long-task finder on a profile built by hand: a synchronous stretch under one
// application frame is found with its length and heaviest functions; requests served one after
// another (application samples between Node's own) are not one.
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { findLongTasks } from '../../bench/lib/cpuProfile.ts';

const frame = (functionName: string, url = '') => ({ functionName, url, lineNumber: 9, columnNumber: 0 });
const nodes = [
  { id: 1, callFrame: frame('(root)'), children: [2, 5, 6, 7, 8] },
  { id: 2, callFrame: frame('parserOnIncoming', 'node:_http_server'), children: [3] },
  { id: 3, callFrame: frame('handle', 'file:///x/src/api/handle.ts'), children: [4] },
  { id: 4, callFrame: frame('sortBy', 'file:///x/src/readModel/tokens/tokenOrder.ts') },
  { id: 5, callFrame: frame('(garbage collector)') },
  { id: 6, callFrame: frame('(idle)') },
  { id: 7, callFrame: frame('writev', 'node:net') },
  { id: 8, callFrame: frame('query', 'file:///x/node_modules/pg/dist/query.js') },
];

describe('findLongTasks', () => {
  const dir = mkdtempSync(join(tmpdir(), 'long-tasks-'));
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('finds a synchronous stretch under one application frame, not requests served one after another', () => {
    const samples: number[] = [];
    // 399 ms of requests: a sample in the handler, one in sortBy, one writing (Node's own)
    for (let i = 0; i < 133; i++) samples.push(3, 4, 7);
    // then 300 ms in one sort, a collection in the middle of it
    for (let i = 0; i < 300; i++) samples.push(i === 150 ? 5 : 4);
    for (let i = 0; i < 50; i++) samples.push(6);
    // a package's own work is not the application's, whatever its folder is called
    for (let i = 0; i < 300; i++) samples.push(8);
    const path = join(dir, 'p.cpuprofile');
    writeFileSync(path, JSON.stringify({ nodes, startTime: 0, endTime: samples.length * 1000, samples, timeDeltas: samples.map(() => 1000) }));
    const tasks = findLongTasks(path, 200);
    assert.equal(tasks.length, 1);
    const [task] = tasks;
    assert.equal(task!.ms, 300);
    assert.equal(task!.atMs, 399);
    assert.match(task!.frame, /^handle src\/api\/handle\.ts:10$/);
    assert.equal(task!.topSelf[0]!.name, 'sortBy src/readModel/tokens/tokenOrder.ts:10');
    assert.equal(task!.topSelf[0]!.ms, 299);
    assert.equal(task!.topSelf[1]!.name, '(garbage collector)');
    assert.deepEqual(findLongTasks(path, 301), []);
  });
});

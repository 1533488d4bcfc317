import { startDemo } from '../src/demo/index.ts';
const t0 = Date.now();
const demo = await startDemo({ seed: 1, live: false });
console.log('startDemo ms', Date.now() - t0, demo.timings);
await demo.stop();

import { checkDemoTrustCases } from '../test/main/demoTrustCases.ts';
await checkDemoTrustCases('http://localhost:3131');
console.log('TRUST CASES OK');

import { startTestServer } from './support/server';
const first = await startTestServer(); await first.close();
let a = 0, b = 0;
for (let i = 0; i < 10; i++) {
  let t = performance.now();
  const s = await startTestServer();
  a += performance.now() - t; t = performance.now();
  await s.close();
  b += performance.now() - t;
}
console.log(`start ${(a / 10).toFixed(0)} ms close ${(b / 10).toFixed(0)} ms`);
console.log((globalThis as any).__steps);

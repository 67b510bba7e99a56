import { Piscina } from 'piscina';
import { analyzeText } from '/work/wt/text-linear/src/personality/text/index.ts';
import { BENCH_TEXT_1000 } from '/work/wt/text-linear/bench/texts.ts';
const pool = new Piscina({ filename: new URL('file:///work/wt/text-linear/src/personality/text/worker-boot.mjs').href, minThreads: 1, maxThreads: 1, execArgv: [], workerData: { modelPath: null } });
const words = BENCH_TEXT_1000.split(' ');
for (const n of [100, 300, 1000, 3000, 5000, 15000]) {
  const parts: string[] = []; while (parts.length < n) parts.push(...words); const text = parts.slice(0, n).join(' ');
  for (let i = 0; i < 20; i++) analyzeText(text, { labelled: true, evidence: true });
  let t = performance.now(); for (let i = 0; i < 20; i++) analyzeText(text, { labelled: true, evidence: true }); const inline = (performance.now() - t) / 20;
  await pool.run({ text, labelled: true, evidence: true });
  t = performance.now(); for (let i = 0; i < 20; i++) await pool.run({ text, labelled: true, evidence: true }); const viaPool = (performance.now() - t) / 20;
  const r = await pool.run({ text, labelled: true, evidence: true });
  console.log(n, 'words', text.length, 'chars inline', inline.toFixed(2), 'ms  pool round trip', viaPool.toFixed(2), 'ms', r.ok);
}
await pool.destroy();

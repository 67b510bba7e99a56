// Entry point of a text-analysis worker thread (see pool.ts). Plain JavaScript for the same
// reason as the PDF workers' boot file (../pdf/worker-boot.mjs): a worker does not inherit the
// main thread's tsx loader, so it loads tsx's API itself and imports the TypeScript through it.
import { tsImport } from 'tsx/esm/api';

const worker = await tsImport('./worker.ts', import.meta.url);

export default worker.analyzeTask;

// Entry point of an import's analysis thread (see analysis-threads.ts). Plain JavaScript for the
// same reason as the text pool's boot file (../personality/text/worker-boot.mjs): a worker does
// not inherit the main thread's tsx loader, so it loads tsx's API itself.
import { tsImport } from 'tsx/esm/api';

const worker = await tsImport('./analysis-worker.ts', import.meta.url);

export default worker.analyzeChunk;

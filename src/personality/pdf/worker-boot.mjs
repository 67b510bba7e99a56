// Entry point of a PDF worker thread (see extractor.ts). Plain JavaScript on purpose: a worker
// does not inherit the tsx loader of the main thread (the service registers it in code, vitest
// uses its own transform), so this file loads tsx's API itself and imports the TypeScript
// worker through it. That works the same under `node bin/rapport.mjs`, `tsx` and vitest, and
// does not depend on the working directory. Piscina calls the default export.
import { tsImport } from 'tsx/esm/api';

const worker = await tsImport('./worker.ts', import.meta.url);

export default worker.runPdfTask;

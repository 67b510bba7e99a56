// Entry point of the DISC map rendering thread. Plain JavaScript for the same reason as the
// PDF workers' boot file: a worker does not inherit the main thread's TypeScript loader.
// Piscina calls the default export.
import { tsImport } from 'tsx/esm/api';

const worker = await tsImport('./disc-map-worker.ts', import.meta.url);

export default worker.renderTask;

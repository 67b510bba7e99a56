// Entry point of the operations listener's thread under tsx (tests, development). Plain
// JavaScript for the same reason as the PDF workers' boot file: a worker does not inherit the
// main thread's TypeScript loader.
import { tsImport } from 'tsx/esm/api';

await tsImport('./thread.ts', import.meta.url);

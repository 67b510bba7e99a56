import type { ResultReport } from './result-report.ts';

/**
 * The result as a PDF the taker keeps (result-pdf-document.ts). pdf-lib and fontkit are ~200
 * modules that cost a process ~0.5 s of CPU to load: they load on the first PDF asked for, not
 * with the service (or a CLI verb, or a test) that may never draw one. That first download waits
 * for them once; a document's own drawing and font subsetting take longer.
 */
export async function renderResultPdf(report: ResultReport, mapPng: Uint8Array | null): Promise<Uint8Array> {
  const { drawResultPdf } = await import('./result-pdf-document.ts');
  return drawResultPdf(report, mapPng);
}

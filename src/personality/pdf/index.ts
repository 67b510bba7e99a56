/**
 * PDF to text, off the main thread and bounded in bytes, pages, decoded size, heap and time
 * (docs/architecture.md, "Where a request goes"). Callers hold one long-lived PdfExtractor and close() it on shutdown.
 */
export { PdfExtractor } from './extractor.ts';
export { sniffPdf } from './sniff.ts';
export {
  DEFAULT_PDF_LIMITS,
  HARD_PAGE_CAP_FACTOR,
  type PdfFailureReason,
  type PdfLimits,
  type PdfTextResult,
} from './types.ts';

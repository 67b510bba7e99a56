const MAGIC = [0x25, 0x50, 0x44, 0x46, 0x2d]; // "%PDF-"

/**
 * True when "%PDF-" starts within the first 1024 bytes. Readers (pdf.js included) accept
 * junk before the header, so this is the same tolerance, and it is cheap enough to run on
 * the main thread before any work is queued.
 */
export function sniffPdf(bytes: Uint8Array): boolean {
  const end = Math.min(bytes.length, 1024) - MAGIC.length;
  for (let i = 0; i <= end; i++) {
    if (MAGIC.every((b, j) => bytes[i + j] === b)) return true;
  }
  return false;
}

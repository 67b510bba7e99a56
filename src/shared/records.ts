/** A parsed JSON object (not null, not an array): what the content loaders check every entry against. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

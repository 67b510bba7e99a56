/**
 * The in-process rate limiter counts in windows aligned to the clock minute, so a test that
 * makes N calls and expects the N+1th refused would see the count reset if a minute ended in
 * between. Such a test first waits, when fewer than `neededMs` are left in this minute, for the
 * next one to begin; then its calls all land in one window and it can assert exactly.
 */
export async function inOneRateWindow(neededMs = 10_000): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * Monthly quotas and usage counts follow the UTC calendar month: a test that counts calls and
 * reads the count back waits, in the last `neededMs` of a month, for the next month to begin.
 */
export async function inOneMonth(neededMs = 30_000): Promise<void> {
  const now = new Date();
  const left = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1) - now.getTime();
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * The limits of src/access/window-limits.ts count in fixed windows of the clock (an hour, a
 * UTC day): a test that fills one and expects the next event refused first waits, when fewer
 * than `neededMs` are left in the current window, for the next one to begin (at most `neededMs`).
 */
export async function inOneWindow(windowSeconds: number, neededMs = 20_000): Promise<void> {
  const windowMs = windowSeconds * 1000;
  const left = windowMs - (Date.now() % windowMs);
  if (left < neededMs) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

/**
 * When a failed delivery is tried again: exponential back-off with jitter, inside its retry
 * window (a day by default). The n-th retry waits about firstRetry × 3^(n-1), at most four
 * hours (or a quarter of a shorter window), stretched or shrunk by up to a quarter at random so
 * deliveries that failed together do not all come back at the same moment. With the defaults:
 * about 5 s, 15 s, 45 s, 2 min, 7 min, 20 min, 1 h, 3 h, then every 4 h, the last attempt at
 * the window's end, some 14 attempts in all (the Standard Webhooks example retries over days;
 * the issue asks a day).
 */
export interface RetryPolicy {
  firstRetryMs: number;
  retryForMs: number;
}

const LONGEST_WAIT_MS = 4 * 3600 * 1000;

export function backoffMs(attempts: number, policy: RetryPolicy, random: () => number = Math.random): number {
  const cap = Math.max(policy.firstRetryMs, Math.min(LONGEST_WAIT_MS, policy.retryForMs / 4));
  const base = Math.min(cap, policy.firstRetryMs * 3 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.75 + 0.5 * random()));
}

/**
 * The next attempt after `attempts` failed ones, or null when the window has ended (the
 * delivery fails for good). A receiver's Retry-After (429, 503) is honoured when it asks for
 * longer than the back-off, within the window.
 */
export function nextAttemptAt(attempts: number, createdAt: Date, now: Date, policy: RetryPolicy, retryAfterMs: number | null = null, random?: () => number): Date | null {
  const deadline = createdAt.getTime() + policy.retryForMs;
  if (now.getTime() >= deadline) return null;
  const wait = Math.max(backoffMs(attempts, policy, random), Math.min(retryAfterMs ?? 0, LONGEST_WAIT_MS));
  return new Date(Math.min(deadline, now.getTime() + wait));
}

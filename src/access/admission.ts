import { AppError } from '../shared/errors.ts';
import type { RateLimiter } from './rate-limit.ts';
import type { ApiToken } from './tokens.ts';
import { monthOf, type UsageMeter } from './usage.ts';

export interface AccessDeps {
  limiter: RateLimiter;
  meter: UsageMeter;
}

export interface RateState {
  limit: number;
  remaining: number;
  resetInSeconds: number;
}

function secondsUntilNextMonth(now: Date): number {
  const next = Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1);
  return Math.max(1, Math.ceil((next - now.getTime()) / 1000));
}

/**
 * Admits a call of a token with neither a per-minute limit nor a monthly quota at once, by
 * metering it (nothing to wait for); false when the token has a limit: then `admitCall`.
 */
export function admitUnlimitedCall(deps: AccessDeps, token: ApiToken, now: Date): boolean {
  if (token.rateLimitPerMinute !== null || token.monthlyQuota !== null) return false;
  deps.meter.record(token.id, now);
  return true;
}

/**
 * Admits one authenticated call: checks the token's rate limit and monthly quota, then meters
 * the call. Calls refused here are not counted against the quota.
 */
export async function admitCall(deps: AccessDeps, token: ApiToken, now: Date): Promise<RateState | null> {
  let rate: RateState | null = null;
  if (token.rateLimitPerMinute !== null) {
    const decision = await deps.limiter.hit(`rate:${token.id}`, token.rateLimitPerMinute, now.getTime());
    const resetInSeconds = Math.max(1, Math.ceil(decision.resetInMs / 1000));
    if (!decision.allowed) {
      throw new AppError('rate_limited', `Rate limit of ${decision.limit} calls per minute reached for this token; retry in ${resetInSeconds} s.`, {
        retryAfterSeconds: resetInSeconds,
      });
    }
    rate = { limit: decision.limit, remaining: decision.remaining, resetInSeconds };
  }
  if (token.monthlyQuota !== null) {
    const used = await deps.meter.monthCalls(token.id, monthOf(now));
    if (used >= token.monthlyQuota) {
      throw new AppError('quota_exceeded', `Monthly quota of ${token.monthlyQuota} calls used up for this token; it renews on the first day of next month (UTC).`, {
        retryAfterSeconds: secondsUntilNextMonth(now),
      });
    }
  }
  deps.meter.record(token.id, now);
  return rate;
}

export interface UsageSummary {
  month: string;
  year: string;
  callsThisMonth: number;
  callsThisYear: number;
  monthlyQuota: number | null;
  remainingThisMonth: number | null;
  rateLimitPerMinute: number | null;
}

export async function usageSummary(deps: AccessDeps, token: ApiToken, now: Date): Promise<UsageSummary> {
  const month = monthOf(now);
  const year = month.slice(0, 4);
  const callsThisYear = await deps.meter.yearCalls(token.id, month);
  const callsThisMonth = await deps.meter.monthCalls(token.id, month);
  return {
    month,
    year,
    callsThisMonth,
    callsThisYear,
    monthlyQuota: token.monthlyQuota,
    remainingThisMonth: token.monthlyQuota === null ? null : Math.max(0, token.monthlyQuota - callsThisMonth),
    rateLimitPerMinute: token.rateLimitPerMinute,
  };
}

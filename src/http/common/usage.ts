import { Type } from 'typebox';
import { usageSummary } from '../../access/admission.ts';
import type { ApiToken } from '../../access/tokens.ts';
import type { AppContext } from '../../context.ts';

/** What every group's usage answer holds; groups billed by the year add the year's calls. */
const monthly = {
  token: Type.Object({ id: Type.String(), name: Type.String() }),
  month: Type.String({ description: 'Current calendar month (UTC), YYYY-MM' }),
  calls_this_month: Type.Integer(),
  monthly_quota: Type.Union([Type.Integer(), Type.Null()], { description: 'Calls allowed per month; null = no quota' }),
  remaining_this_month: Type.Union([Type.Integer(), Type.Null()]),
  rate_limit_per_minute: Type.Union([Type.Integer(), Type.Null()], { description: 'null = no per-minute limit' }),
};

export const MonthlyUsage = Type.Object({ data: Type.Object(monthly) }, { description: "The token's calls this month, against its quota and rate limit" });
export const AnnualUsage = Type.Object(
  {
    data: Type.Object({
      ...monthly,
      year: Type.String(),
      calls_this_year: Type.Integer({ description: 'Calls in the current calendar year (UTC)' }),
    }),
  },
  { description: "The token's calls this month and this year, against its quota and rate limit" },
);

export async function usageData(ctx: AppContext, token: ApiToken) {
  const usage = await usageSummary(ctx, token, new Date());
  return {
    data: {
      token: { id: token.id, name: token.name },
      year: usage.year,
      calls_this_year: usage.callsThisYear,
      month: usage.month,
      calls_this_month: usage.callsThisMonth,
      monthly_quota: usage.monthlyQuota,
      remaining_this_month: usage.remainingThisMonth,
      rate_limit_per_minute: usage.rateLimitPerMinute,
    },
  };
}

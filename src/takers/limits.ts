import { DAY_SECONDS, HOUR_SECONDS, type WindowLimit } from '../access/window-limits.ts';

/**
 * Test submissions each link, address and taker may make (docs/api-decisions.md). Counted in
 * the database, so they hold across every process on it; only new submissions count (a resent
 * form of the same attempt does not), and only ones that were stored.
 *
 * - Per link: a busy app's button sends many people through one link, so this only stops a
 *   flood of one user's dashboard (two tests a minute, all hour long, is far past real use).
 * - Per address: each result mails its taker a link, so one mailbox gets a handful a day at most.
 * - Per taker: one network (an IPv4 /24, an IPv6 /64) cannot spread a flood over many links
 *   and addresses; a room of candidates behind one office address still fits.
 */
export const SUBMISSION_LIMITS = {
  perLinkPerHour: 120,
  perAddressPerDay: 5,
  perNetworkPerHour: 20,
} as const;

export function submissionLimits(record: { linkKey: string; emailNormalized: string; network: string }): WindowLimit[] {
  return [
    {
      key: `test:network:${record.network}`,
      limit: SUBMISSION_LIMITS.perNetworkPerHour,
      windowSeconds: HOUR_SECONDS,
      refusal: `Too many tests were sent from your network in the last hour (${SUBMISSION_LIMITS.perNetworkPerHour} at most); your answers are kept in this page.`,
    },
    {
      key: `test:link:${record.linkKey}`,
      limit: SUBMISSION_LIMITS.perLinkPerHour,
      windowSeconds: HOUR_SECONDS,
      refusal: 'This test link has taken as many tests as it may this hour; your answers are kept in this page.',
    },
    {
      key: `test:address:${record.emailNormalized}`,
      limit: SUBMISSION_LIMITS.perAddressPerDay,
      windowSeconds: DAY_SECONDS,
      refusal: `Tests for this email address are limited to ${SUBMISSION_LIMITS.perAddressPerDay} a day; your answers are kept in this page.`,
    },
  ];
}

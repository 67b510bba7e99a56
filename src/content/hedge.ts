/**
 * What makes a sentence a tendency rather than a fact: every wording written for a tentative
 * placement has one (connect/hedged.ts for message and email advice, relationship/library.ts for
 * the relationship topics). Its own module, so those two loaders need not import each other.
 */
export const HEDGE = /\b(?:may|might|tends? to|seems?|likely|probably|perhaps)\b|writing (?:so far )?suggests/i;

/** The loaders' words for a tentative wording without a hedge. */
export const HEDGE_MISSING = 'must say it as a tendency ("may", "seems", "likely", "if … as their writing suggests")';

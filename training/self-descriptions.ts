import { SIGNALS } from '../src/personality/text/signal-data.ts';

/**
 * Words a writer uses to describe their own style: the self-description signals of the model
 * (signal-data.ts) and the trait adjectives a reader would count as such. `npm run eval` reads
 * the held-out professional texts again with all of them deleted, so a reading that rests on
 * "I am decisive" alone shows.
 */
const EXTRA = [
  'direct', 'straightforward', 'warm', 'friendly', 'caring', 'kind', 'reliable', 'steady', 'organised', 'organized',
  'hard working', 'hardworking', 'motivated', 'bubbly', 'fun', 'people oriented', 'people focused', 'detail driven',
  'competitive', 'determined', 'focused', 'disciplined', 'diplomatic', 'accommodating', 'humble', 'modest', 'quiet',
  'sociable', 'personable', 'cautious', 'careful', 'accurate', 'thoughtful', 'pragmatic',
];

function phrasesOf(list: string): string[] {
  return list.split('|').map((phrase) => phrase.replace(/-/g, ' ').trim()).filter((phrase) => phrase !== '');
}

export const SELF_DESCRIPTIONS: readonly string[] = [
  ...new Set([...SIGNALS.filter((signal) => signal.selfDescription === true).flatMap((signal) => phrasesOf(signal.phrases)), ...EXTRA]),
];

function patternOf(phrase: string): string {
  const stem = phrase.endsWith('*');
  const words = (stem ? phrase.slice(0, -1) : phrase).split(/\s+/).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return `${words.join('[\\s-]+')}${stem ? '\\w*' : ''}`;
}

const PATTERN = new RegExp(`\\b(?:${[...SELF_DESCRIPTIONS].sort((a, b) => b.length - a.length).map(patternOf).join('|')})\\b`, 'gi');

/** The text with every self-descriptive word or phrase deleted (the rest left as written). */
export function withoutSelfDescriptions(text: string): string {
  return text.replace(PATTERN, '').replace(/[ \t]{2,}/g, ' ');
}

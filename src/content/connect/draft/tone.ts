/**
 * Tone words for the checks that depend on the reader's style: warmth (I and S readers want a line
 * of it), pleasantries (a delay to D and C readers), and a change announced with no word of
 * support (S readers).
 */
import { PhraseSet } from '../message-scan.ts';

export const WARMTH = new PhraseSet([
  'thanks', 'thank', 'appreciate', 'appreciated', 'hope', 'hoping', 'glad', 'great', 'enjoyed', 'pleasure', 'happy', 'delighted', 'lovely', 'wonderful', 'kind', 'grateful', 'congratulations', 'welcome', 'pleased', 'nice', 'cheers',
  // Thanks in another language is still thanks.
  'gracias', 'merci', 'danke', 'grazie', 'obrigado', 'obrigada',
]);
export const SMALL_TALK = new PhraseSet([
  'hope you are well', "hope you're well", 'hope you are doing well', "hope you're doing well", 'hope this email finds you well',
  'hope this finds you well', 'hope all is well', 'how are you', 'how are you doing', 'hope you had a great weekend', 'hope you had a good weekend',
  'hope you had a nice weekend', 'hope your week is going well', 'happy friday', 'happy monday',
]);
export const CHANGE = new PhraseSet([
  'change', 'changes', 'changing', 'moving to', 'switching', 'switch to', 'replace', 'replacing', 'restructure', 'restructuring', 'reorganisation', 'reorganization', 'migrate', 'migrating', 'migration', 'transition', 'new process', 'new system', 'going forward',
]);
export const REASSURANCE = new PhraseSet([
  'support', 'supported', 'help', 'helping', 'questions', 'happy to', 'glad to', 'no rush', 'your pace', 'together', 'stays the same', 'stay the same', 'will not change', "won't change", 'step by step', 'walk you through', 'here for you', 'reassure',
]);

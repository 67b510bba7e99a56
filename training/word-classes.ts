import winkNLP from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/**
 * Word classes (parts of speech) of the words the model weighs, found at training time so
 * evidence can say "organised (adjective)" and the service needs no tagger. Each word gets
 * the class it has most often in the training texts, tagged in context by wink-nlp's
 * English model.
 */

/** Universal POS tags → what a reader is shown; tags left out are never named. */
export const WORD_CLASS_LABELS: Readonly<Record<string, string>> = {
  NOUN: 'noun',
  PROPN: 'name',
  VERB: 'verb',
  ADJ: 'adjective',
  ADV: 'adverb',
  PRON: 'pronoun',
  INTJ: 'interjection',
  NUM: 'number',
};

/** Lower-cased word → its most frequent class label in `texts` (only words with a labelled class). */
export function dominantWordClasses(texts: readonly string[]): Map<string, string> {
  const nlp = winkNLP(model);
  const its = nlp.its;
  const counts = new Map<string, Map<string, number>>();
  for (const text of texts) {
    const doc = nlp.readDoc(text);
    const values = doc.tokens().out(its.value);
    const tags = doc.tokens().out(its.pos);
    values.forEach((value, i) => {
      const label = WORD_CLASS_LABELS[tags[i] ?? ''];
      if (label === undefined) return;
      const word = value.toLowerCase();
      const perWord = counts.get(word) ?? new Map<string, number>();
      perWord.set(label, (perWord.get(label) ?? 0) + 1);
      counts.set(word, perWord);
    });
  }
  const classes = new Map<string, string>();
  for (const [word, perWord] of counts) {
    let best = '';
    let bestCount = 0;
    for (const [label, count] of perWord) {
      if (count > bestCount || (count === bestCount && label < best)) {
        best = label;
        bestCount = count;
      }
    }
    classes.set(word, best);
  }
  return classes;
}

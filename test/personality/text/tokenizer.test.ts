import { describe, expect, it } from 'vitest';
import { DENSE_NAMES, extractFeatures, STYLE_NAMES } from '../../../src/personality/text/features.ts';
import { bucketOf, hashBigram, hashWord } from '../../../src/personality/text/hashing.ts';
import { CATEGORY_NAMES, categoryIndex, lookupWord } from '../../../src/personality/text/lexicon.ts';
import { stripMarkup } from '../../../src/personality/text/markup.ts';
import { tokenize } from '../../../src/personality/text/tokenizer.ts';

describe('tokenize', () => {
  it('splits words, keeps contractions and folds curly apostrophes', () => {
    const tokens = tokenize('I don’t know. We can’t go!');
    expect(tokens.words).toEqual(['i', "don't", 'know', 'we', "can't", 'go']);
    expect(tokens.sentenceLengths).toEqual([3, 3]);
    expect(tokens.punctuation.apostrophe).toBe(2);
    expect(tokens.punctuation.period).toBe(1);
    expect(tokens.punctuation.exclamation).toBe(1);
  });

  it('gives each word the hash of its lower-cased form, whatever its capitals, apostrophes or script', () => {
    const tokens = tokenize('I DON’T know, Zoë. We can\'t go to São Paulo! ÉCOLE straße İstanbul o’Neil MiXeD');
    expect(tokens.words.length).toBeGreaterThan(12);
    expect(tokens.wordHashes).toEqual(tokens.words.map(hashWord));
    // Generated words: every ASCII letter in both cases, apostrophes of both kinds, some non-ASCII letters.
    const letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ'’éÉßİ";
    let seed = 7;
    const next = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31);
    const text = Array.from({ length: 3000 }, () => Array.from({ length: 1 + (next() % 9) }, () => letters[next() % letters.length]).join('')).join(' ');
    const generated = tokenize(text);
    expect(generated.words.length).toBeGreaterThan(2000);
    expect(generated.wordHashes).toEqual(generated.words.map(hashWord));
  });

  it('counts an ellipsis once and ends the sentence there', () => {
    const tokens = tokenize('well... maybe later, ok?');
    expect(tokens.punctuation.ellipsis).toBe(1);
    expect(tokens.punctuation.period).toBe(0);
    expect(tokens.punctuation.comma).toBe(1);
    expect(tokens.punctuation.question).toBe(1);
    expect(tokens.sentenceLengths).toEqual([1, 3]);
  });

  it('counts numbers, capitals, shouting and a lower-case i', () => {
    const tokens = tokenize('i paid 3.50 in Austin. It was GREAT and NASA agreed');
    expect(tokens.numbers).toBe(1);
    expect(tokens.words).not.toContain('3');
    expect(tokens.lowercaseI).toBe(1);
    expect(tokens.midSentenceCapitals).toBe(1); // Austin; "It" starts a sentence
    expect(tokens.allCapsWords).toBe(2);
  });

  it('counts vowels, other scripts and consonant clusters', () => {
    expect(tokenize('banana').vowels).toBe(3);
    expect(tokenize('привет мир').nonAsciiLetters).toBe(9);
    expect(tokenize('xkcdq strengths cat').consonantClusterWords).toBe(2);
  });
});

describe('lexicon', () => {
  it('matches exact words and stems, each class once', () => {
    const worried = lookupWord('worried').categories.map((c) => CATEGORY_NAMES[c]);
    expect(worried).toContain('anxiety');
    expect(worried).toContain('negemo');
    expect(lookupWord('happen').categories.map((c) => CATEGORY_NAMES[c])).not.toContain('posemo');
    expect(lookupWord('we').categories).toEqual([categoryIndex('we')]);
    const friends = lookupWord('friends').categories;
    expect(new Set(friends).size).toBe(friends.length);
    expect(lookupWord('zzzqqq').categories).toEqual([]);
  });
});

describe('hashing', () => {
  it('is stable and order-sensitive for bigrams', () => {
    expect(hashWord('hello')).toBe(hashWord('hello'));
    expect(hashWord('hello')).not.toBe(hashWord('hellp'));
    const a = hashWord('not');
    const b = hashWord('happy');
    expect(hashBigram(a, b)).not.toBe(hashBigram(b, a));
    expect(bucketOf(0xffffffff, 20)).toBe((1 << 20) - 1);
  });
});

describe('extractFeatures', () => {
  it('computes word-class rates and style measures', () => {
    const tokens = tokenize('We love our friends. We talk and laugh together!');
    const features = extractFeatures(tokens, 20, 1);
    expect(features.wordCount).toBe(9);
    expect(features.dense).toHaveLength(DENSE_NAMES.length);
    const weRate = features.dense[categoryIndex('we')] ?? 0;
    expect(weRate).toBeCloseTo(Math.log1p((100 * 3) / 9), 10); // we, our, we
    const exclamation = features.dense[CATEGORY_NAMES.length + STYLE_NAMES.indexOf('exclamation')] ?? 0;
    expect(exclamation).toBeCloseTo(Math.log1p(100 / 9), 10);
    expect(features.dense[CATEGORY_NAMES.length + STYLE_NAMES.indexOf('words_per_sentence')]).toBeCloseTo(Math.log1p(4.5), 10);
    expect(features.ngrams.get(bucketOf(hashWord('we'), 20))).toBe(2);
  });

  it('makes bigrams within sentences only and remembers their words', () => {
    const terms = new Map<number, string>();
    const features = extractFeatures(tokenize('very happy. sad day'), 20, 2, terms);
    expect(features.ngrams.size).toBe(6);
    expect([...terms.values()].sort()).toEqual(['day', 'happy', 'sad', 'sad day', 'very', 'very happy']);
  });
});

describe('stripMarkup', () => {
  it('drops tags, scripts, entities, URLs and e-mails but keeps the prose', () => {
    const text = stripMarkup('<p>Hello&nbsp;<b>world</b></p><script>var x = 1;</script> see https://x.io or mail a@b.com &amp; more');
    expect(tokenize(text).words).toEqual(['hello', 'world', 'see', 'or', 'mail', 'more']);
  });
});

import { describe, expect, it } from 'vitest';
import { lookupWord } from '../../../src/personality/text/lexicon.ts';
import { readWords } from '../../../src/personality/text/words.ts';

/** The junk check, the vocabulary measure and the n-gram pass count words by these numbers. */
describe('readWords', () => {
  it('numbers each text’s distinct words from 0 in order of first use', () => {
    const read = readWords(['the', 'cat', 'saw', 'the', 'dog', 'cat']);
    expect(Array.from(read.ids)).toEqual([0, 1, 2, 0, 3, 1]);
    expect(read.distinct).toBe(4);
    expect(read.infos[0]).toBe(lookupWord('the'));
    expect(read.infos[3]).toBe(read.infos[0]);
  });

  it('numbers the next text afresh, whatever words the last one held', () => {
    readWords(['dog', 'the', 'cat']);
    const read = readWords(['cat', 'bird', 'cat', 'dog']);
    expect(Array.from(read.ids)).toEqual([0, 1, 0, 2]);
    expect(read.distinct).toBe(3);
    expect(readWords([]).distinct).toBe(0);
  });

  it('gives a word one number even when the bounded memo is emptied part-way through the text', () => {
    // More new words than the memo holds (200,000) forces a clear between the two "alpha"s.
    const fresh = Array.from({ length: 200_001 }, (_, i) => `zqmemo${i}x`);
    const words = ['alpha', ...fresh, 'alpha'];
    const read = readWords(words);
    expect(read.ids[0]).toBe(0);
    expect(read.ids[words.length - 1]).toBe(0);
    expect(read.ids[1]).toBe(1);
    expect(read.distinct).toBe(200_002);
    // The text after it is numbered by entry again.
    expect(Array.from(readWords(['alpha', 'beta', 'alpha']).ids)).toEqual([0, 1, 0]);
  });
});

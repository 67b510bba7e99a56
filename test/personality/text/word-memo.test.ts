import { describe, expect, it } from 'vitest';
import { hashWord } from '../../../src/personality/text/hashing.ts';
import { WordMemo } from '../../../src/personality/text/word-memo.ts';

describe('WordMemo', () => {
  it('finds each word by its hash and its letters, across growth, and tells words of one hash apart', () => {
    const memo = new WordMemo<{ word: string; n: number }>(4);
    const words = Array.from({ length: 5000 }, (_, n) => `w${n.toString(36)}`);
    words.forEach((word, n) => memo.add({ word, n }, hashWord(word)));
    expect(memo.size).toBe(5000);
    words.forEach((word, n) => expect(memo.get(word, hashWord(word))?.n).toBe(n));
    expect(memo.get('absent', hashWord('absent'))).toBeUndefined();
    // Two words given one hash (a collision): each still finds its own entry.
    memo.add({ word: 'left', n: -1 }, 12345);
    memo.add({ word: 'right', n: -2 }, 12345);
    expect(memo.get('left', 12345)?.n).toBe(-1);
    expect(memo.get('right', 12345)?.n).toBe(-2);
    expect(memo.get('middle', 12345)).toBeUndefined();
    // A word asked for under another hash is not found: the hash is part of the key.
    expect(memo.get('w0', hashWord('w0') + 1)).toBeUndefined();
    memo.clear();
    expect(memo.size).toBe(0);
    expect(memo.get('w0', hashWord('w0'))).toBeUndefined();
  });
});

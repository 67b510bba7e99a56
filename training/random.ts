import { seededRandom } from '../src/shared/random.ts';

// The generator lives with the service code (the advice-overlap measure uses it too).
export { seededRandom };

export function shuffleInPlace<T>(items: T[], random: () => number): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const a = items[i];
    const b = items[j];
    if (a === undefined || b === undefined) continue;
    items[i] = b;
    items[j] = a;
  }
  return items;
}

/**
 * Fold number (0..folds-1) for every document, with each class dealt round-robin over
 * the folds after a seeded shuffle, so every fold keeps the corpus's class balance.
 */
export function stratifiedFolds(labels: ArrayLike<number>, folds: number, seed: number): Int32Array {
  const random = seededRandom(seed);
  const assignment = new Int32Array(labels.length);
  for (const label of [0, 1]) {
    const members: number[] = [];
    for (let i = 0; i < labels.length; i++) if (labels[i] === label) members.push(i);
    shuffleInPlace(members, random);
    // Start the second class where the first ended so fold sizes stay within one.
    const offset = label === 0 ? 0 : (assignment.length - members.length) % folds;
    members.forEach((doc, position) => {
      assignment[doc] = (position + offset) % folds;
    });
  }
  return assignment;
}

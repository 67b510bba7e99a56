import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { TRAITS, type Trait } from '../src/personality/types.ts';

/** One labelled text: `{id, text, <trait>: boolean, ...}` per JSON line. */
export interface LabelledDocument {
  id: string;
  text: string;
  labels: Partial<Record<Trait, boolean>>;
}

export interface LabelledCorpus {
  documents: LabelledDocument[];
  /** SHA-256 of the file's bytes, recorded in the model so a model names its data. */
  sha256: string;
  /** Traits labelled on every document; the others cannot be trained or evaluated. */
  traits: Trait[];
  /** Traits some documents label and others do not. */
  partialTraits: Trait[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function readLabelledCorpus(path: string): LabelledCorpus {
  const bytes = readFileSync(path);
  const documents: LabelledDocument[] = [];
  bytes
    .toString('utf8')
    .split('\n')
    .forEach((line, lineIndex) => {
      if (line.trim() === '') return;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`${path}:${lineIndex + 1}: not valid JSON`);
      }
      if (!isRecord(parsed) || typeof parsed.text !== 'string') throw new Error(`${path}:${lineIndex + 1}: expected an object with a "text" string`);
      const labels: Partial<Record<Trait, boolean>> = {};
      for (const trait of TRAITS) {
        const value = parsed[trait];
        if (typeof value === 'boolean') labels[trait] = value;
      }
      documents.push({ id: typeof parsed.id === 'string' ? parsed.id : String(lineIndex + 1), text: parsed.text, labels });
    });
  const traits = TRAITS.filter((trait) => documents.length > 0 && documents.every((doc) => doc.labels[trait] !== undefined));
  const partialTraits = TRAITS.filter((trait) => !traits.includes(trait) && documents.some((doc) => doc.labels[trait] !== undefined));
  return { documents, sha256: createHash('sha256').update(bytes).digest('hex'), traits, partialTraits };
}

export function labelsFor(documents: readonly LabelledDocument[], trait: Trait): Uint8Array {
  return Uint8Array.from(documents, (doc) => (doc.labels[trait] === true ? 1 : 0));
}

import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { typeCentre, type DiscType } from '../src/personality/circle.ts';
import { EXTRAVERSION_ANGLE, AGREEABLENESS_ANGLE } from '../src/personality/circle.ts';
import type { Genre } from '../src/personality/text/genre.ts';

/**
 * Rapport's professional-writing corpus (training/corpus/professional.jsonl, its data card
 * beside it): texts written for the project so that a careful reader agrees on the writer's
 * DISC style, in the four kinds of writing the API is sent. One JSON object a line:
 *
 *   {id, persona, writer, genre: email|various|bio|resume, label: a DISC type code,
 *    person: first|third, role, industry, region, self_descriptive, split: train|heldout|fresh, text}
 *
 * `heldout` texts (a quarter of the personas, both texts of a person written twice) are never
 * trained or tuned on; `fresh` texts were written by a new hand after the model was frozen.
 */

export type Split = 'train' | 'heldout' | 'fresh';

export interface ProfessionalText {
  id: string;
  persona: string;
  writer: string;
  /** The contract's text_type. */
  textType: 'email' | 'various' | 'bio' | 'resume';
  genre: Genre;
  label: DiscType;
  person: 'first' | 'third';
  selfDescriptive: boolean;
  split: Split;
  text: string;
}

export interface ProfessionalCorpus {
  texts: ProfessionalText[];
  sha256: string;
}

const LABELS = new Set<string>(['D', 'Di', 'Dc', 'I', 'Id', 'Is', 'S', 'Si', 'Sc', 'C', 'Cs', 'Cd', 'DI', 'IS', 'SC', 'CD']);
const TEXT_TYPES = new Set<string>(['email', 'various', 'bio', 'resume']);
const SPLITS = new Set<string>(['train', 'heldout', 'fresh']);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function genreOf(textType: ProfessionalText['textType']): Genre {
  return textType === 'various' ? 'profile' : textType;
}

export function readProfessionalCorpus(path: string): ProfessionalCorpus {
  const bytes = readFileSync(path);
  const texts: ProfessionalText[] = [];
  bytes
    .toString('utf8')
    .split('\n')
    .forEach((line, index) => {
      if (line.trim() === '') return;
      const where = `${path}:${index + 1}`;
      let parsed: unknown;
      try {
        parsed = JSON.parse(line);
      } catch {
        throw new Error(`${where}: not valid JSON`);
      }
      if (!isRecord(parsed)) throw new Error(`${where}: expected an object`);
      const { id, persona, writer, genre, label, person, self_descriptive: selfDescriptive, split, text } = parsed;
      if (typeof id !== 'string' || typeof persona !== 'string' || typeof text !== 'string') throw new Error(`${where}: id, persona and text must be strings`);
      if (typeof genre !== 'string' || !TEXT_TYPES.has(genre)) throw new Error(`${where}: genre must be one of email, various, bio, resume`);
      if (typeof label !== 'string' || !LABELS.has(label)) throw new Error(`${where}: label must be a DISC type code`);
      if (typeof split !== 'string' || !SPLITS.has(split)) throw new Error(`${where}: split must be train, heldout or fresh`);
      const textType = genre as ProfessionalText['textType'];
      texts.push({
        id,
        persona,
        writer: typeof writer === 'string' ? writer : id.split('-')[0] ?? '',
        textType,
        genre: genreOf(textType),
        label: label as DiscType,
        person: person === 'third' ? 'third' : 'first',
        selfDescriptive: selfDescriptive === true,
        split: split as Split,
        text,
      });
    });
  return { texts, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/** The style a label's writer shows first: the first letter of its type code. */
export function quadrantOf(label: DiscType): 'D' | 'I' | 'S' | 'C' {
  const letter = label.charAt(0);
  return letter === 'D' || letter === 'I' || letter === 'S' ? letter : 'C';
}

/**
 * A label as soft targets for the two traits that set the DISC point: the label's direction
 * projected on the extraversion and agreeableness axes (circle.ts), mapped to probabilities
 * 0.5 ± strength/2 × the projection. A D writer is clearly low on agreeableness and mildly high
 * on extraversion; a Dc writer says nothing about extraversion (target ½).
 */
export function softTargets(label: DiscType, strength: number): { extraversion: number; agreeableness: number } {
  const angle = typeCentre(label);
  const project = (axis: number): number => Math.cos(((angle - axis) * Math.PI) / 180);
  return {
    extraversion: 0.5 + (strength / 2) * project(EXTRAVERSION_ANGLE),
    agreeableness: 0.5 + (strength / 2) * project(AGREEABLENESS_ANGLE),
  };
}

/**
 * Fold of each text with every persona's texts in one fold (a person written twice is never
 * both trained on and scored), personas dealt round-robin by label after a hash of their id and
 * the seed: deterministic, balanced in labels.
 */
export function personaFolds(texts: readonly ProfessionalText[], folds: number, seed: number): Int32Array {
  const labelOf = new Map<string, string>();
  for (const text of texts) labelOf.set(text.persona, text.label);
  const byLabel = new Map<string, string[]>();
  for (const [persona, label] of labelOf) byLabel.set(label, [...(byLabel.get(label) ?? []), persona]);
  const foldOf = new Map<string, number>();
  let offset = 0;
  for (const label of [...byLabel.keys()].sort()) {
    const personas = (byLabel.get(label) ?? []).sort((a, b) => hashOf(a, seed).localeCompare(hashOf(b, seed)));
    personas.forEach((persona, i) => foldOf.set(persona, (i + offset) % folds));
    offset += personas.length;
  }
  return Int32Array.from(texts, (text) => foldOf.get(text.persona) ?? 0);
}

function hashOf(value: string, seed: number): string {
  return createHash('sha256').update(`${seed}:${value}`).digest('hex');
}

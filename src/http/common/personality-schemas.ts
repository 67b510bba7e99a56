import { NO_PERSONALITY_MESSAGE } from '../../analysis/analyses.ts';
import { Type } from 'typebox';
import { TRAITS } from '../../personality/types.ts';
import type { ProfileContent } from '../../content/compose-profile.ts';
import type { PersonalityDescription } from '../../content/describe.ts';

/**
 * Fields Rapport adds beside the contract's: the trait estimate behind every view, and the
 * words that moved each trait. The contract's own fields keep their exact names and shapes.
 */
const TraitEntry = Type.Object({
  score: Type.Number({ description: 'From -1 to 1; 0 is the population average' }),
  confidence: Type.Number({ description: 'From 0 to 1' }),
});
export const TraitsField = Type.Object(Object.fromEntries(TRAITS.map((t) => [t, TraitEntry])), {
  description: 'The trait estimate every view is derived from (Rapport extension)',
});
const Span = {
  start: Type.Optional(Type.Integer({ minimum: 0, description: 'Where the phrase starts in the text as sent (UTF-16 code units; for a PDF, in its extracted text)' })),
  end: Type.Optional(Type.Integer({ minimum: 0, description: 'Where it ends (exclusive)' })),
};
const EvidenceEntry = Type.Array(
  Type.Object({
    term: Type.String({ description: 'The phrase or word as written' }),
    weight: Type.Number({ description: 'Signed: how far it moved the trait' }),
    label: Type.Optional(Type.String({ description: 'What the phrase shows, e.g. "sets a deadline"; absent for a plain word' })),
    ...Span,
  }),
);
export const EvidenceField = Type.Object(Object.fromEntries(TRAITS.map((t) => [t, EvidenceEntry])), {
  description: 'The phrases and words of the text that moved each trait most, signed, with where they stand in the text (Rapport extension)',
});
export const StyleEvidenceField = Type.Array(
  Type.Object({
    term: Type.String({ description: 'The phrase as written' }),
    label: Type.Optional(Type.String({ description: 'What the phrase shows, e.g. "sets a deadline"' })),
    ...Span,
    toward: Type.Union([Type.Literal('D'), Type.Literal('I'), Type.Literal('S'), Type.Literal('C')], { description: 'The DISC style the phrase points to on its own' }),
    weight: Type.Number({ description: 'Positive: it pulled the reading toward the type it got; negative: away' }),
  }),
  { description: 'The phrases that moved the DISC placement most: those that pulled toward it first, then up to two that pulled away (Rapport extension)' },
);
export const ReadAsField = Type.String({
  description:
    'The kind of writing the text was read as (Rapport extension): email, profile (a first-person profile or post), bio, resume, or personal (free personal writing); each is read against writing of its own kind',
});

export const NoPersonality = Type.Object(
  {
    data: Type.Null(),
    message: Type.Literal('Content did not yield a personality'),
    reason: Type.Optional(
      Type.String({
        description:
          'Why, where known (Rapport extension): text_too_short, text_junk, text_unsupported_language (English only), ' +
          'or for a PDF pdf_encrypted, pdf_unreadable, pdf_too_many_pages, pdf_timeout, pdf_too_large, pdf_empty, pdf_not_pdf',
      }),
    ),
  },
  { description: 'The text or PDF yielded no personality (too little text, junk, another language, unreadable PDF)' },
);

/** The contract's no-personality answer, with the reason beside it when there is one. */
export function noPersonality(reason?: string | null) {
  return { data: null, message: NO_PERSONALITY_MESSAGE, ...(reason ? { reason } : {}) } as const;
}

export const StringList = Type.Array(Type.String());

/** What `confidence` means, for every answer that carries it (Rapport extension). */
export const CONFIDENCE_DESCRIPTION =
  'How sure the placement on the DISC circle is, 0–100, the same number on every surface (Rapport extension): up to 90 from the personality test, ' +
  'about 15–20 from a bio or an essay. The advice follows the direction and strength of the reading; under 15 it is worded as what the person may tend to do, ' +
  'and strong wording needs 50 or more.';

export function traitsOf(description: PersonalityDescription) {
  const { scores, confidence } = description.estimate;
  return Object.fromEntries(TRAITS.map((t) => [t, { score: round(scores[t]), confidence: round(confidence[t]) }]));
}

export function evidenceOf(description: PersonalityDescription) {
  const evidence = description.estimate.evidence;
  return Object.fromEntries(TRAITS.map((t) => [t, (evidence?.[t] ?? []).map((e) => ({ ...e, weight: round(e.weight) }))]));
}

export function styleEvidenceOf(description: PersonalityDescription) {
  return (description.estimate.styleEvidence ?? []).map((e) => ({ ...e, weight: round(e.weight) }));
}

/** The kind of writing the text was read as; `personal` for estimates from before model v3. */
export function readAsOf(description: PersonalityDescription): string {
  return description.estimate.genre ?? 'personal';
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

const Phrases = Type.Object({ phrase: StringList });

/** The advice blocks A1 and A2 share: `profile.overview` and seven `{phrase: [...]}` sections. */
export const PhraseBlocks = {
  profile: Type.Object({ overview: StringList }),
  behavior: Phrases,
  motivation: Phrases,
  drainer: Phrases,
  communication: Phrases,
  meeting: Phrases,
  selling: Phrases,
  working_together: Phrases,
};

export function phraseBlocks(content: ProfileContent) {
  return {
    profile: { overview: content.overview },
    behavior: { phrase: content.behavior },
    motivation: { phrase: content.motivation },
    drainer: { phrase: content.drainer },
    communication: { phrase: content.communication },
    meeting: { phrase: content.meeting },
    selling: { phrase: content.selling },
    working_together: { phrase: content.working_together },
  };
}

/** The flat content of A3 and B1: five lists, named `motivations` and `drains` there (not A1's blocks). */
export const FlatContent = Type.Object({
  behavior: StringList,
  motivations: StringList,
  drains: StringList,
  communication: StringList,
  meeting: StringList,
});

export function flatContent(content: ProfileContent) {
  return {
    behavior: content.behavior,
    motivations: content.motivation,
    drains: content.drainer,
    communication: content.communication,
    meeting: content.meeting,
  };
}

/** Group A's optional `text_type` (the values of Connect's C1 field): the kind of writing, when the caller knows it. */
export const TextTypeField = Type.Union([Type.Literal('email'), Type.Literal('various'), Type.Literal('bio'), Type.Literal('resume')], {
  description:
    'Optional (Rapport extension; Connect\'s text_type values): what the text is. email, bio and resume are read as that kind of writing; various or none lets Rapport tell from the text (read_as in the answer says what it read)',
});

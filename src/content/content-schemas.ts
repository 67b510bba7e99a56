/**
 * The shape of every content file, one TypeBox schema per kind of file: what a field holds, which
 * fields there are, which values are allowed. load-content.ts checks each file against its schema
 * at start-up and names the file and the JSON pointer of anything that does not fit. What a
 * schema cannot say (a template's placeholders, a hedge in a tentative wording, a sentence said
 * twice) is checked after it, by the named checks beside each kind of content.
 */
import { Type, type TSchema } from 'typebox';
import { STANCES } from './claims.ts';
import { EVIDENCE_LEVELS } from './reading.ts';
import { ROLE_FAMILIES } from './roles.ts';
import { OTHER_TRAITS, TRAIT_LEVELS } from './traits.ts';
import { OVERVIEW_SECTIONS } from './phrases.ts';
import { LEANS, PAIRS, RELATIONS, RELATIONSHIP_TOPICS, STYLES } from './relationship/library.ts';
import { CHECKS } from './connect/messaging-library.ts';
import { CLAIM_STANCES, MEASURED, RESULT_LISTS, RESULT_STYLES, RESULT_TYPES, SCALES, TRAIT_LISTS } from './taker/result.ts';

const Text = Type.String({ minLength: 1 });
const oneOf = (values: readonly string[]) => Type.Enum([...values]);
const listOf = (values: readonly string[]) => Type.Array(oneOf(values), { minItems: 1 });
/** An object with exactly these keys, each holding `value`. */
const keyed = (keys: readonly string[], value: TSchema) =>
  Type.Object(Object.fromEntries(keys.map((key) => [key, value])), { additionalProperties: false });
/** An object with some of these keys, each holding `value`. */
const someOf = (keys: readonly string[], value: TSchema) =>
  Type.Object(Object.fromEntries(keys.map((key) => [key, Type.Optional(value)])), { additionalProperties: false });

const phraseFields = {
  id: Type.String({ pattern: '^[a-z_]+-\\d{3,}$' }),
  angle: Type.Number({ minimum: 0, maximum: 360 }),
  spread: Type.Number({ exclusiveMinimum: 0, maximum: 180 }),
  text: Text,
  minIntensity: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  maxIntensity: Type.Optional(Type.Number({ minimum: 0, maximum: 100 })),
  evidence: Type.Optional(listOf(EVIDENCE_LEVELS)),
  traits: Type.Optional(Type.Object(Object.fromEntries(OTHER_TRAITS.map((t) => [t, Type.Optional(oneOf(TRAIT_LEVELS))])), { additionalProperties: false, minProperties: 1 })),
  roles: Type.Optional(listOf(ROLE_FAMILIES)),
  stance: Type.Optional(listOf([...STANCES])),
  theme: Type.Optional(Type.String({ pattern: '^[a-z_]+$' })),
  tentative: Type.Optional(Text),
};

/** phrases/<section>.json and phrases/summary.json. */
export const PhraseFileSchema = Type.Array(Type.Object(phraseFields, { additionalProperties: false }));
/** phrases/section_overview.json: phrases that also name their C2 block. */
export const SectionOverviewFileSchema = Type.Array(Type.Object({ ...phraseFields, section: oneOf(OVERVIEW_SECTIONS) }, { additionalProperties: false }));

const entryId = (file: string) => Type.String({ pattern: `^${file}-\\d{3,}$` });
const slots = Type.Array(Type.String(), { minItems: 1 });
const careFields = {
  loose: Type.Optional(slots),
  if_careful: Type.Optional(Text),
  careful: Type.Optional(slots),
  if_loose: Type.Optional(Text),
};
const tentativeFields = {
  if_tentative: Type.Optional(Text),
  if_careful_tentative: Type.Optional(Text),
  if_loose_tentative: Type.Optional(Text),
};

/** relationship/needs.json */
export const NeedsFileSchema = Type.Array(
  Type.Object({ id: entryId('needs'), topic: oneOf(RELATIONSHIP_TOPICS), style: oneOf(STYLES), text: Text, ...careFields, ...tentativeFields }, { additionalProperties: false }),
);
/** relationship/dynamics.json */
export const DynamicsFileSchema = Type.Array(
  Type.Object({ id: entryId('dynamics'), topic: oneOf(RELATIONSHIP_TOPICS), pair: oneOf(PAIRS), text: Text, ...careFields, ...tentativeFields }, { additionalProperties: false }),
);
const overviewEntry = (kind: string, key: TSchema, extra: Record<string, TSchema> = {}) =>
  Type.Object({ id: entryId('overview'), kind: Type.Literal(kind), key, text: Text, ...extra }, { additionalProperties: false });
/** relationship/overview.json */
export const OverviewFileSchema = Type.Array(
  Type.Union([
    overviewEntry('pair', oneOf(PAIRS), { ...careFields, tentative: Type.Optional(slots) }),
    overviewEntry('lean', oneOf(LEANS), careFields),
    overviewEntry('relation', oneOf(RELATIONS)),
    overviewEntry('blend', oneOf(['any', 'both'])),
    overviewEntry('tentative', oneOf(['any', 'both'])),
  ]),
);

/** A text said as it is, or written twice: firm and for a tentative person (connect/hedged.ts). */
const Hedged = Type.Union([Text, Type.Object({ text: Text, tentative: Text }, { additionalProperties: false })]);
/** A note on the sender's habit, with variants for the people it describes. */
const HedgedPair = Type.Union([
  Text,
  Type.Object({ text: Text, sender: Type.Optional(Text), reader: Type.Optional(Text), both: Type.Optional(Text) }, { additionalProperties: false }),
]);

/** messaging/advice.json: every check, with its advice per reader style (a missing style: the check does not apply). */
export const AdviceFileSchema = keyed(CHECKS, someOf(STYLES, Hedged));
/** messaging/sender.json: per sender style, a note per check. */
export const SenderFileSchema = keyed(STYLES, someOf(CHECKS, HedgedPair));
/** messaging/habits.json: per check, a note drawn from the draft, said from `min` times on. */
export const HabitsFileSchema = someOf(CHECKS, Type.Object({ min: Type.Integer({ minimum: 2 }), text: Text }, { additionalProperties: false }));
/** messaging/notes.json */
export const MessagingNotesFileSchema = Type.Object({ tentative: Text }, { additionalProperties: false });

const EMAIL_VARIANTS = [...STYLES, 'B'];
/** emails/templates.json */
export const EmailTemplatesFileSchema = Type.Object(
  {
    sender_notes: keyed(STYLES, someOf(STYLES, HedgedPair)),
    notes: Type.Object({ tentative: Text }, { additionalProperties: false }),
    blends: keyed(['DI', 'CD', 'SC', 'IS'], Hedged),
    roles: keyed(ROLE_FAMILIES, Text),
    situations: Type.Array(
      Type.Object(
        {
          key: Text,
          label: Text,
          tips: keyed(EMAIL_VARIANTS, Type.Array(Hedged, { minItems: 1 })),
          text: keyed(EMAIL_VARIANTS, Type.Array(Type.String(), { minItems: 3 })),
          lean: keyed(STYLES, Type.Object({ line: Text, tip: Hedged }, { additionalProperties: false })),
        },
        { additionalProperties: false },
      ),
      { minItems: 5 },
    ),
  },
  { additionalProperties: false },
);

const MAX_SENTENCE = 200;
const Sentence = Type.String({ minLength: 1, maxLength: MAX_SENTENCE });
const ResultEntry = Type.Object({ text: Sentence, claims: Type.Optional(oneOf(CLAIM_STANCES)) }, { additionalProperties: false });
/** Counts a style's lists need so every kind of type (pure, leaning, even) fills its places. */
const MIN_PER_LIST: Record<(typeof RESULT_LISTS)[number], number> = { strengths: 4, blindSpots: 4, communication: 3, work: 3, drains: 3 };
const lists = (minimum: (list: (typeof RESULT_LISTS)[number]) => number) =>
  Object.fromEntries(RESULT_LISTS.map((list) => [list, Type.Array(ResultEntry, { minItems: minimum(list) })]));

/** taker/result.json */
export const TakerResultFileSchema = Type.Object(
  {
    format: Type.Literal('rapport-taker-result'),
    /** A note to whoever edits the file. */
    about: Type.Optional(Type.String()),
    styles: keyed(RESULT_STYLES, Type.Object({ name: Sentence, gist: Sentence, ...lists((list) => MIN_PER_LIST[list]) }, { additionalProperties: false })),
    types: keyed(RESULT_TYPES, Sentence),
    balanced: Type.Object({ gist: Sentence, lean: Sentence, ...lists(() => 2) }, { additionalProperties: false }),
    traits: keyed(MEASURED, keyed(['high', 'low'], keyed(TRAIT_LISTS, ResultEntry))),
    scales: keyed(SCALES, Type.Object({ name: Sentence, means: Sentence }, { additionalProperties: false })),
  },
  { additionalProperties: false },
);

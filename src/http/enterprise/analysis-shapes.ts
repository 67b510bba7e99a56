import { Type } from 'typebox';
import { TENTATIVE_CONFIDENCE } from '../../content/reading.ts';
import type { PersonalityDescription } from '../../content/describe.ts';
import { discMapUrl } from '../common/links.ts';
import {
  CONFIDENCE_DESCRIPTION,
  EvidenceField,
  FlatContent,
  PhraseBlocks,
  ReadAsField,
  StyleEvidenceField,
  TraitsField,
  evidenceOf,
  flatContent,
  phraseBlocks,
  readAsOf,
  styleEvidenceOf,
  traitsOf,
} from '../common/personality-schemas.ts';

/** A2: GET /v1/analysis/text. */
export const AnalysisA2 = Type.Object({
  data: Type.Object({
    personalities: Type.Object({ disc_type: Type.String() }),
    images: Type.Object({ disc_map: Type.String({ format: 'uri' }) }),
    content: Type.Object(PhraseBlocks),
    confidence: Type.Integer({ description: CONFIDENCE_DESCRIPTION }),
    traits: TraitsField,
    evidence: EvidenceField,
    style_evidence: StyleEvidenceField,
    read_as: ReadAsField,
  }),
});

export function toA2(description: PersonalityDescription, base: string) {
  const { view, content } = description;
  return {
    data: {
      personalities: { disc_type: view.discType },
      images: { disc_map: discMapUrl(base, view.point) },
      content: phraseBlocks(content),
      confidence: view.confidence,
      traits: traitsOf(description),
      evidence: evidenceOf(description),
      style_evidence: styleEvidenceOf(description),
      read_as: readAsOf(description),
    },
  };
}

const a3Data = {
  personality: Type.Object({ disc_type: Type.String() }),
  content: FlatContent,
  confidence: Type.Integer({ description: CONFIDENCE_DESCRIPTION }),
  tentative: Type.Boolean({
    description: `True when confidence is under ${TENTATIVE_CONFIDENCE}: the text says little, so read the content as what the author may tend to do (Rapport extension; A3 has no overview to say so)`,
  }),
  traits: TraitsField,
  evidence: EvidenceField,
  style_evidence: StyleEvidenceField,
  read_as: ReadAsField,
};

/** A3: POST /v1/analysis/text. */
export const AnalysisA3 = Type.Object({ data: Type.Object(a3Data) });

/** A3 of a stored analysis: GET /v1/analysis/:id, with its id and status beside. */
export const StoredAnalysisA3 = Type.Object({
  data: Type.Object({ id: Type.String(), status: Type.Literal('complete'), ...a3Data }),
});

export function toA3(description: PersonalityDescription) {
  const { view, content } = description;
  return {
    data: {
      personality: { disc_type: view.discType },
      content: flatContent(content),
      confidence: view.confidence,
      tentative: description.reading.evidence === 'thin',
      traits: traitsOf(description),
      evidence: evidenceOf(description),
      style_evidence: styleEvidenceOf(description),
      read_as: readAsOf(description),
    },
  };
}

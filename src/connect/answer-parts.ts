import type { ConnectRecommendations } from '../content/connect/recommendations.ts';
import type { RecommendationsCache } from '../content/connect/recommendations-cache.ts';
import { personalityView, type PersonalityView } from '../personality/views.ts';
import type { FoundProfile } from './requests.ts';

/** What a found profile's answer (C2) is written from. */
export interface AnswerParts {
  view: PersonalityView;
  recommendations: ConnectRecommendations;
}

/**
 * The parts of a found profile's answer that cost CPU: the view holding its DISC type and map
 * point (DISC percentages, the point's traits, the type names), and the recommendations
 * (composed once per reading, recommendations-cache.ts). The route (src/http/connect/schemas.ts,
 * toC2) and the name search's warm-up (warm-up.ts) both build them here, so the warm-up runs
 * exactly the code the first callers' answers run (V8's --trace-opt showed the view's functions
 * optimised during a fresh process's first ~2,000 answers when only the recommendations were
 * warmed; docs/benchmarks.md).
 */
export function answerParts(profile: FoundProfile, recommendations: RecommendationsCache): AnswerParts {
  return {
    view: personalityView(profile.estimate),
    recommendations: recommendations.compose({ firstName: profile.firstName, estimate: profile.estimate, title: profile.title }),
  };
}

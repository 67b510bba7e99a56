/**
 * In-process speed of scoring a completed personality test (target: under 20 ms; storing it is
 * measured with the test pages). Scoring includes the views the result page shows.
 */
import { loadQuestionnaire } from '../src/assessment/questionnaire.ts';
import { scoreAnswers } from '../src/assessment/scoring.ts';
import { personalityView } from '../src/personality/views.ts';
import { summarize, timeRuns as time } from './stats.ts';

const loadStart = performance.now();
const questionnaire = loadQuestionnaire();
const loadMs = performance.now() - loadStart;

// Varied answers (a deterministic pseudo-random pattern), so no check short-circuits the scoring.
const answers: Record<string, number> = {};
questionnaire.items.forEach((item, k) => {
  answers[item.id] = 1 + ((k * 7 + 3) % 5);
});
const check = scoreAnswers(questionnaire, answers);
if (!check.ok) throw new Error(`bench answers were not scored: ${check.reason}`);

time(200, () => scoreAnswers(questionnaire, answers));
const scoring = summarize(time(5000, () => scoreAnswers(questionnaire, answers)));
const withViews = summarize(
  time(5000, () => {
    const outcome = scoreAnswers(questionnaire, answers);
    if (outcome.ok) personalityView(outcome.estimate);
  }),
);
const loading = summarize(time(200, () => loadQuestionnaire()));

console.log(`personality test (${questionnaire.items.length} items; first load ${loadMs.toFixed(1)} ms)`);
console.log(`  scoreAnswers                    median ${scoring.median.toFixed(4)} ms  p95 ${scoring.p95.toFixed(4)} ms  (target: < 20 ms)`);
console.log(`  scoreAnswers + personalityView  median ${withViews.median.toFixed(4)} ms  p95 ${withViews.p95.toFixed(4)} ms`);
console.log(`  loadQuestionnaire (read + check) median ${loading.median.toFixed(4)} ms  p95 ${loading.p95.toFixed(4)} ms`);

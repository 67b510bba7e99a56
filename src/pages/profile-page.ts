/**
 * The public HTML profile page: a pure function of its model, no JavaScript, no external
 * resources except the person's photo and their DISC map. Every interpolated string goes
 * through escapeHtml and every URL through safeHttpUrl (docs/architecture.md, "Content as data").
 */
import { FULL_CONFIDENCE } from '../assessment/scoring.ts';
import { EMPHATIC_CONFIDENCE, TENTATIVE_CONFIDENCE } from '../content/reading.ts';
import { traitLevels } from '../content/traits.ts';
import { renderMessagePage } from './app-shell.ts';
import { escapeHtml, safeHttpUrl } from './html.ts';

export interface ProfilePageModel {
  firstName: string;
  lastName: string;
  photoUrl?: string | null;
  companyName?: string | null;
  title?: string | null;
  /** True when the person took the assessment, false for a prediction. */
  verified: boolean;
  personalities: {
    archetype: string;
    discType: string;
    discIntensity: number;
    discPercentages: { d: number; i: number; s: number; c: number };
    myersBriggsType: string;
    /** A number in one response shape and a string in another; both display the same. */
    enneagramType: number | string;
  };
  qualities: string[];
  discMapUrl: string;
  sections: { title: string; phrases: string[] }[];
  /** What the profile rests on; shown in plain words so a reader knows how far to trust it. */
  evidence?: {
    source: 'assessment' | 'prediction';
    /** Words of text the prediction was made from. */
    wordCount: number;
    /** 0–100, how sure the placement on the DISC circle is. */
    confidence: number;
  };
  /**
   * The traits the personality test measured beside the circle, scores in [-1, 1]; only for a
   * test's result. Shown apart from the DISC bars, whose C is a share of the point on the
   * interpersonal circle, not the conscientiousness the test measured.
   */
  measured?: { conscientiousness: number; openness: number };
}

const STYLE_BARS = [
  { key: 'd', name: 'Dominance', colour: '#d64541' },
  { key: 'i', name: 'Influence', colour: '#e99a1f' },
  { key: 's', name: 'Steadiness', colour: '#3f9f62' },
  { key: 'c', name: 'Conscientiousness', colour: '#3b7dd8' },
] as const;

const CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:#f4f6f8;color:#1f2933;line-height:1.5}
main{max-width:980px;margin:0 auto;padding:24px 16px 48px}
.card{background:#fff;border:1px solid #e4e7eb;border-radius:14px;padding:22px;box-shadow:0 1px 2px rgba(31,41,51,.05)}
.identity{display:flex;gap:20px;align-items:center;flex-wrap:wrap}
.avatar{width:96px;height:96px;border-radius:50%;object-fit:cover;flex:none;background:#d9e2ec}
.initials{display:flex;align-items:center;justify-content:center;font-size:34px;font-weight:700;color:#fff;background:linear-gradient(135deg,#3b7dd8,#6a4fc8)}
.who{flex:1;min-width:220px}
h1{margin:0;font-size:30px;line-height:1.2}
.role{margin:4px 0 0;color:#52606d}
.badge{display:inline-block;margin-top:10px;padding:3px 10px;border-radius:999px;font-size:13px;font-weight:600}
.badge.verified{background:#e3f4ea;color:#1f7a45}.badge.predicted{background:#eef2f7;color:#52606d}
.headline{text-align:right;min-width:160px}
.eyebrow{margin:0;font-size:12px;text-transform:uppercase;letter-spacing:1.2px;color:#52606d}
.archetype{font-size:26px;font-weight:700;margin:0;line-height:1.2}
.disc-line{margin:6px 0 0;font-size:14px;color:#52606d}
.disc-code{display:inline-block;margin-left:4px;padding:1px 10px;border-radius:8px;background:#1f2933;color:#fff;font-weight:700;letter-spacing:.5px}
.grid{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:20px;margin-top:20px}
.map img{display:block;width:100%;max-width:420px;height:auto;margin:0 auto}
h2{font-size:15px;text-transform:uppercase;letter-spacing:1.2px;color:#52606d;margin:0 0 14px}
.bar{margin:0 0 12px}
.bar-label{display:flex;justify-content:space-between;font-size:14px;margin-bottom:4px}
.track{height:10px;border-radius:5px;background:#e4e7eb;overflow:hidden}
.fill{height:100%;border-radius:5px}
.types{display:flex;gap:12px;margin:18px 0}
.type-tile{flex:1;border:1px solid #e4e7eb;border-radius:10px;padding:10px 12px}
.type-tile span{display:block;font-size:12px;color:#52606d;text-transform:uppercase;letter-spacing:1px}
.type-tile strong{font-size:22px}
.chips{display:flex;flex-wrap:wrap;gap:8px;padding:0;margin:0;list-style:none}
.chips li{padding:4px 12px;border-radius:999px;background:#eef2ff;color:#3c366b;font-size:14px;font-weight:600}
.note{margin:0 0 14px;font-size:13px;color:#52606d}
.measured{list-style:none;padding:0;margin:0 0 18px}.measured li{display:flex;justify-content:space-between;gap:12px;font-size:14px;padding:4px 0;border-bottom:1px solid #eef2f7}.measured small{color:#52606d}
.evidence{margin-top:20px}.evidence p{margin:0 0 8px}.evidence .amount{font-size:17px;font-weight:600}
.sections{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:20px;margin-top:20px}
.sections ul{margin:0;padding-left:20px}.sections li{margin:0 0 8px}
footer{text-align:center;color:#52606d;font-size:13px;margin-top:32px}
@media (max-width:720px){.grid{grid-template-columns:1fr}.headline{text-align:left}h1{font-size:25px}}
`;

/** Keeps a number displayable: finite, rounded, within 0–100. */
function percent(value: number): number {
  return Number.isFinite(value) ? Math.min(100, Math.max(0, Math.round(value))) : 0;
}

function initialsOf(first: string, last: string): string {
  const letters = [first, last].map((name) => Array.from(name.trim())[0] ?? '').join('');
  return letters === '' ? '?' : letters.toUpperCase();
}

function avatar(model: ProfilePageModel, fullName: string): string {
  const photo = safeHttpUrl(model.photoUrl);
  if (photo !== null) {
    return `<img class="avatar" src="${escapeHtml(photo)}" alt="${escapeHtml(fullName)}" referrerpolicy="no-referrer">`;
  }
  return `<div class="avatar initials" aria-hidden="true">${escapeHtml(initialsOf(model.firstName, model.lastName))}</div>`;
}

function identity(model: ProfilePageModel, fullName: string): string {
  const role = [model.title, model.companyName].filter((v): v is string => typeof v === 'string' && v.trim() !== '');
  const p = model.personalities;
  return `<header class="card identity">
${avatar(model, fullName)}
<div class="who">
<h1>${escapeHtml(fullName)}</h1>
${role.length > 0 ? `<p class="role">${role.map((v) => escapeHtml(v.trim())).join(' · ')}</p>` : ''}
${model.verified ? '<span class="badge verified">Verified by assessment: from the personality test they took</span>' : '<span class="badge predicted">Predicted profile</span>'}
</div>
<div class="headline">
<p class="eyebrow">Archetype</p>
<p class="archetype">${escapeHtml(p.archetype)}</p>
<p class="disc-line">DISC type <span class="disc-code">${escapeHtml(p.discType)}</span></p>
</div>
</header>`;
}

function bar(name: string, value: number, colour: string): string {
  const v = percent(value);
  return `<div class="bar"><div class="bar-label"><span>${escapeHtml(name)}</span><strong>${v}%</strong></div><div class="track" role="img" aria-label="${escapeHtml(name)} ${v}%"><div class="fill" style="width:${v}%;background:${colour}"></div></div></div>`;
}

const MEASURED_TRAITS = [
  // Not called "Conscientiousness": the DISC bar of that name sits just above it, and two values
  // under one name read as an error (a trial read "Conscientiousness 1%" over "very high").
  { key: 'conscientiousness', name: 'Thoroughness', gloss: 'care, order, follow-through: the test\'s conscientiousness scale' },
  { key: 'openness', name: 'Openness', gloss: 'curiosity, appetite for new things' },
] as const;

/** The person's first name for a sentence, HTML-escaped; "this person" when there is none. */
function whoOf(model: ProfilePageModel): string {
  const name = model.firstName.trim();
  return escapeHtml(name === '' ? 'this person' : name);
}

/**
 * What the test measured besides the circle. The DISC bars above are shares of the person's
 * point on the interpersonal circle (how they deal with people), so a "C" share of 4 % says
 * nothing about how careful they are: a taker found "Conscientiousness 4%" beside advice that
 * they run on checklists, which the test had measured (0.75).
 */
function measuredBlock(model: ProfilePageModel): string {
  const measured = model.measured;
  if (measured === undefined || model.evidence?.source !== 'assessment') return '';
  // In words, on the advice's own levels (content/traits.ts).
  const levels = traitLevels(measured);
  const rows = MEASURED_TRAITS.filter(({ key }) => Number.isFinite(measured[key]))
    .map(({ key, name, gloss }) => `<li><span>${escapeHtml(name)} <small>(${escapeHtml(gloss)})</small></span><strong>${levels[key] ?? 'average'}</strong></li>`)
    .join('');
  if (rows === '') return '';
  const who = whoOf(model);
  return `<h2>Measured by the test</h2>
<p class="note">How ${who} works, from the test's own questions, apart from the DISC styles above.</p>
<ul class="measured">${rows}</ul>`;
}

function styleCard(model: ProfilePageModel): string {
  const p = model.personalities;
  const bars = STYLE_BARS.map(({ key, name, colour }) => bar(name, p.discPercentages[key], colour)).join('\n');
  const qualities = model.qualities.filter((q) => q.trim() !== '');
  const who = whoOf(model);
  return `<section class="card">
<h2>Style</h2>
${bar('Intensity', p.discIntensity, '#1f2933')}
${bars}
<p class="note">How ${who}'s point on the DISC map divides among the four DISC styles (together 100 %): how they deal with people, not trait scores.</p>
${measuredBlock(model)}
<div class="types">
<div class="type-tile"><span>Myers-Briggs</span><strong>${escapeHtml(p.myersBriggsType)}</strong></div>
<div class="type-tile"><span>Enneagram</span><strong>${escapeHtml(String(p.enneagramType))}</strong></div>
</div>
${qualities.length > 0 ? `<h2>Qualities</h2>\n<ul class="chips">${qualities.map((q) => `<li>${escapeHtml(q.trim())}</li>`).join('')}</ul>` : ''}
</section>`;
}

function mapCard(model: ProfilePageModel, fullName: string): string {
  const mapUrl = safeHttpUrl(model.discMapUrl, { allowRootRelative: true });
  const image =
    mapUrl === null
      ? '<p>No map available.</p>'
      : `<img src="${escapeHtml(mapUrl)}" alt="${escapeHtml(`DISC map of ${fullName}: ${model.personalities.discType}`)}" width="400" height="400">`;
  return `<section class="card map">
<h2>DISC map</h2>
${image}
</section>`;
}

/** How much the profile rests on, and what its confidence means, in plain words. */
function evidenceCard(model: ProfilePageModel): string {
  const evidence = model.evidence;
  if (evidence === undefined) return '';
  const confidence = percent(evidence.confidence);
  const who = whoOf(model);
  const words = Number.isFinite(evidence.wordCount) ? Math.max(0, Math.round(evidence.wordCount)) : 0;
  const amount =
    evidence.source === 'assessment'
      ? 'From a personality test.'
      : `Predicted from ${words.toLocaleString('en-US')} ${words === 1 ? 'word' : 'words'} of text.`;
  const reading =
    evidence.source === 'assessment' || confidence >= EMPHATIC_CONFIDENCE
      ? `The answers place ${who} on the DISC circle directly, so the advice can be read as a good description.`
      : confidence < TENTATIVE_CONFIDENCE
        ? `That is little to go on: the advice follows the way the writing points, worded as what ${who} may tend to do. Check it against how they actually respond.`
        : 'Read the advice as likely tendencies rather than certainties: the first statements of a section are the clearest signs in the writing, the rest are worded as tendencies. More text, or the personality test, would make it firmer.';
  const intensity =
    evidence.source === 'assessment'
      ? ''
      : `<p>The intensity shown above is how far the writing places ${who} from the average, pulled towards it by how little text there is, so it stays honest about the evidence. The advice follows the direction of the writing and how strongly it points, and the confidence decides how firmly it is worded.</p>
`;
  return `<section class="card evidence">
<h2>How sure is this profile?</h2>
<p class="amount">${amount} Confidence ${confidence} of 100.</p>
<p>${reading}</p>
${intensity}<p>Confidence says how sure we are of where someone sits on the DISC circle, and it is the same number wherever Rapport shows this person: a completed personality test gives up to ${Math.round(100 * FULL_CONFIDENCE)} (no questionnaire is exact; fewer answers, less); a prediction from writing stays far lower, because writing shows personality only in part (about 20 from a long text, less from a short one). Below ${TENTATIVE_CONFIDENCE} every statement about the person is worded as a tendency, and strong wording is kept for confidence of ${EMPHATIC_CONFIDENCE} or more.</p>
</section>`;
}

function adviceSections(model: ProfilePageModel): string {
  const cards = model.sections
    .filter((section) => section.phrases.length > 0)
    .map(
      (section) => `<section class="card advice">
<h2>${escapeHtml(section.title)}</h2>
<ul>${section.phrases.map((phrase) => `<li>${escapeHtml(phrase)}</li>`).join('')}</ul>
</section>`,
    );
  return cards.length > 0 ? `<div class="sections">\n${cards.join('\n')}\n</div>` : '';
}

/**
 * Images may come from the stated photo host and this origin; nothing else loads, and no
 * script can run even if escaping were ever bypassed.
 */
const CSP = "default-src 'none'; img-src 'self' https: http:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";
/** As a header, where `frame-ancestors` counts (a meta tag cannot carry it): no other site frames a profile page. */
export const PROFILE_PAGE_CSP = `${CSP}; frame-ancestors 'none'`;

function documentShell(title: string, body: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${CSP}">
<meta name="robots" content="noindex">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(title)}</title>
<style>${CSS}</style>
</head>
<body>
${body}
</body>
</html>
`;
}

/** A complete HTML5 profile page. */
export function renderProfilePage(model: ProfilePageModel): string {
  const fullName = [model.firstName, model.lastName].map((n) => n.trim()).filter((n) => n !== '').join(' ') || 'Unnamed';
  const body = `<main>
${identity(model, fullName)}
<div class="grid">
${mapCard(model, fullName)}
${styleCard(model)}
</div>
${evidenceCard(model)}
${adviceSections(model)}
<footer>Profile by Rapport</footer>
</main>`;
  return documentShell(`${fullName} · Rapport profile`, body);
}

/** The page for an unknown or removed profile: the service's one error page. */
export function renderNotFoundPage(): string {
  return renderMessagePage('Profile not found', 'This profile does not exist or is no longer available.', undefined, 404);
}

/**
 * The personality test page. Plain HTML first: every question is a fieldset of radio buttons
 * with labels, and the form posts without any script. /assets/test.js, when it runs, shows one
 * screen at a time with a progress bar and keeps answers in localStorage across reloads.
 */
import type { Questionnaire } from '../assessment/questionnaire.ts';
import { errorBox, renderShell } from './app-shell.ts';
import { escapeHtml, safeHttpUrl } from './html.ts';

export interface TestPageModel {
  /** Where the form posts: the page's own path. */
  action: string;
  questionnaire: Questionnaire;
  /** The address the inviting app gave (api_user_email); null: the person types theirs. */
  apiUserEmail: string | null;
  submissionId: string;
  /** Names this link's saved answers in the browser. */
  storageKey: string;
  /** A hiring link's role and posting, shown in the consent line. */
  hiring: { role: string; url: string } | null;
  /** The service sends mail: a result becomes the taker's profile once they confirm the address. */
  mailConfirms: boolean;
  error?: string | null;
  /** Values to show again after a refused submission. */
  answers?: Readonly<Record<string, number>>;
  firstName?: string;
  lastName?: string;
  email?: string;
}

const CSS = `
html{scroll-padding-top:80px}
.intro h1{margin-bottom:6px}
.progress-wrap{position:sticky;top:0;z-index:2;background:#f4f6f8;padding:8px 0 10px;margin:0 0 8px}
.progress-text{font-size:14px;color:#52606d;margin:0 0 4px}
.progress{height:10px;border-radius:5px;background:#d9dee4;overflow:hidden}
.progress-bar{height:100%;width:0;background:#1d4ed8;transition:width .2s}
.screen h2{font-size:17px;color:#52606d;margin:0 0 10px}
.screen h2:focus{outline:none}
fieldset.item{border:1px solid #d9dee4;border-radius:12px;margin:0 0 14px;padding:12px 14px 14px;background:#fff}
fieldset.item legend{font-weight:600;font-size:17px;padding:0 4px;float:left;width:100%;margin:0 0 8px}
fieldset.item legend .num{color:#52606d;font-weight:500;margin-right:6px}
.scale{clear:both;display:grid;grid-template-columns:repeat(5,minmax(0,1fr));gap:6px}
.scale label{position:relative;display:flex;flex-direction:column;align-items:center;gap:4px;font-weight:500;font-size:13px;text-align:center;padding:8px 4px;border:1px solid #c3cad3;border-radius:8px;cursor:pointer;color:#323f4b;line-height:1.25;margin:0}
.scale input{width:20px;height:20px;margin:0;accent-color:#1d4ed8}
.scale label:has(input:checked){border-color:#1d4ed8;background:#e8efff;color:#1e3a8a}
.scale label:has(input:focus-visible){outline:3px solid #f59e0b;outline-offset:2px}
.nav-buttons{display:flex;justify-content:space-between;gap:12px;margin:6px 0 18px}
.nav-buttons [hidden]{display:none}
.nav-buttons [data-next],.nav-buttons [type=submit]{margin-left:auto}
.consent{font-size:15px;color:#323f4b;background:#fff;border:1px solid #d9dee4;border-radius:10px;padding:12px 14px}
.js .screen{display:none}.js .screen.current{display:block}
.no-js-only{}.js .no-js-only{display:none}
.missing{border-color:#b91c1c;box-shadow:0 0 0 2px #fecaca}
@media (max-width:560px){.scale{grid-template-columns:1fr}.scale label{flex-direction:row;justify-content:flex-start;text-align:left;padding:10px 12px;font-size:15px}}
`;

function itemFieldset(q: Questionnaire, itemId: string, number: number, chosen: number | undefined): string {
  const item = q.items.find((i) => i.id === itemId);
  if (!item) return '';
  const name = `q.${item.id}`;
  const options = q.options
    .map(
      (o) =>
        `<label><input type="radio" name="${escapeHtml(name)}" value="${o.value}" required${chosen === o.value ? ' checked' : ''}><span>${escapeHtml(o.label)}</span></label>`,
    )
    .join('');
  return `<fieldset class="item" data-item="${escapeHtml(item.id)}">
<legend><span class="num">${number}.</span>${escapeHtml(item.text)}</legend>
<div class="scale">${options}</div>
</fieldset>`;
}

function consentLine(model: TestPageModel): string {
  const who = model.hiring
    ? (() => {
      const url = safeHttpUrl(model.hiring.url);
      const posting = url ? ` (<a href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">job posting</a>)` : '';
      return `the employer hiring for <strong>${escapeHtml(model.hiring.role)}</strong>${posting}`;
    })()
    : 'the organisation that gave you this link';
  // Said in full: a confirmed result makes the person "verified" across the service, so other
  // API users who look them up (group A by email, Connect by name or email) get it too.
  const beyond = model.mailConfirms
    ? 'We then mail you a link: if you confirm your address with it, your result also becomes your profile on this Rapport service, and other users who look you up by your email or name get your name and personality profile (never your answers). Until you confirm, nobody else sees it.'
    : 'Nobody else on this Rapport service sees it: it does not become your profile here.';
  return `<p class="consent">By sending your answers you agree that Rapport stores them with your name and email, and that ${who} can see your name, email and personality result. ${beyond} You see your result at once and can delete it from the result page at any time.</p>`;
}

function detailsScreen(model: TestPageModel, index: number, total: number): string {
  const email = model.apiUserEmail
    ? `<input type="hidden" name="api_user_email" value="${escapeHtml(model.apiUserEmail)}">`
    : `<div class="field"><label for="email">Your email</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" value="${escapeHtml(model.email ?? '')}"></div>`;
  return `<section class="screen" data-screen="${index}" aria-labelledby="screen-${index}-title">
<h2 id="screen-${index}-title" tabindex="-1">Part ${index + 1} of ${total}: about you</h2>
<div class="card">
<div class="field"><label for="first_name">First name (how we address you)</label><input id="first_name" name="first_name" type="text" autocomplete="given-name" maxlength="100" value="${escapeHtml(model.firstName ?? '')}"></div>
<div class="field"><label for="last_name">Last name</label><input id="last_name" name="last_name" type="text" autocomplete="family-name" maxlength="100" value="${escapeHtml(model.lastName ?? '')}"></div>
${email}
${consentLine(model)}
</div>
<div class="nav-buttons"><button type="button" class="secondary" data-back hidden>Back</button><button type="submit">See my result</button></div>
</section>`;
}

export function renderTestPage(model: TestPageModel): string {
  const q = model.questionnaire;
  const total = q.screens.length + 1;
  let number = 0;
  const screens = q.screens
    .map((ids, index) => {
      const items = ids.map((id) => itemFieldset(q, id, ++number, model.answers?.[id])).join('\n');
      return `<section class="screen" data-screen="${index}" aria-labelledby="screen-${index}-title">
<h2 id="screen-${index}-title" tabindex="-1">Part ${index + 1} of ${total}</h2>
${items}
<div class="nav-buttons"><button type="button" class="secondary" data-back hidden>Back</button><button type="button" data-next hidden>Next</button></div>
</section>`;
    })
    .join('\n');
  const body = `<div class="intro">
<h1>Personality test</h1>
<p class="muted">${escapeHtml(q.items.length.toString())} short statements, about seven minutes. ${escapeHtml((q as { instructions?: string }).instructions ?? 'Rate how accurately each statement describes you.')}</p>
</div>
${errorBox(model.error)}
<form method="post" action="${escapeHtml(model.action)}" id="test-form" data-storage-key="${escapeHtml(model.storageKey)}" data-total="${q.items.length}">
<div class="progress-wrap" hidden data-progress-wrap>
<p class="progress-text" id="progress-text" aria-live="polite">0 of ${q.items.length} answered</p>
<div class="progress" role="progressbar" aria-labelledby="progress-text" aria-valuemin="0" aria-valuemax="${q.items.length}" aria-valuenow="0"><div class="progress-bar"></div></div>
</div>
<input type="hidden" name="submission_id" value="${escapeHtml(model.submissionId)}">
${screens}
${detailsScreen(model, q.screens.length, total)}
</form>`;
  return renderShell({ title: 'Personality test · Rapport', body, css: CSS, scripts: ['/assets/test.js'] });
}

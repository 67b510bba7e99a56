/**
 * The personality test page. Plain HTML first: a first screen that says who is asking, what
 * the taker gets and what others see (with a box to agree), then every question as a fieldset
 * of radio buttons with labels; the form posts without any script. /assets/test.js, when it
 * runs, shows one screen at a time with a progress bar, says in words what is missing, and
 * keeps answers in localStorage across reloads.
 */
import type { Questionnaire } from '../assessment/questionnaire.ts';
import { errorBox, renderShell } from './app-shell.ts';
import { escapeHtml, safeHttpUrl } from './html.ts';
import { TEST_CSS } from './test-page-style.ts';

export interface TestPageModel {
  /** Where the form posts: the page's own path. */
  action: string;
  questionnaire: Questionnaire;
  /** The address the inviting app gave (api_user_email); null: the person types theirs. */
  apiUserEmail: string | null;
  submissionId: string;
  /** Names this link's saved answers in the browser. */
  storageKey: string;
  /** A hiring link's role and posting, shown as what the test is for. */
  hiring: { role: string; url: string } | null;
  /** Who is asking: the organisation the inviting user named on their dashboard; null when not set. */
  organisationName: string | null;
  /** The service sends mail: a result becomes the taker's profile once they confirm the address. */
  mailConfirms: boolean;
  error?: string | null;
  /** Values to show again after a refused submission. */
  answers?: Readonly<Record<string, number>>;
  firstName?: string;
  lastName?: string;
  email?: string;
  /** The box was ticked in a refused submission. */
  consented?: boolean;
}

/** The two ends of the scale, shown under the row of answers on a phone (each answer keeps its full label). */
function scaleEnds(q: Questionnaire): string {
  const first = q.options[0]?.label ?? '';
  const last = q.options[q.options.length - 1]?.label ?? '';
  return `<div class="scale-ends" aria-hidden="true"><span>${escapeHtml(first)}</span><span>${escapeHtml(last)}</span></div>`;
}

function itemFieldset(q: Questionnaire, itemId: string, number: number, chosen: number | undefined): string {
  const item = q.items.find((i) => i.id === itemId);
  if (!item) return '';
  const name = `q.${item.id}`;
  const options = q.options
    .map(
      (o) =>
        `<label><input type="radio" name="${escapeHtml(name)}" value="${o.value}" required${chosen === o.value ? ' checked' : ''}><span class="opt-text">${escapeHtml(o.label)}</span></label>`,
    )
    .join('');
  return `<fieldset class="item" data-item="${escapeHtml(item.id)}">
<legend><span class="num">${number}.</span>${escapeHtml(item.text)}</legend>
<div class="scale">${options}</div>
${scaleEnds(q)}
</fieldset>`;
}

/** Who gave the link, in a sentence's words: the organisation's name, or a plain description when it gave none. */
function asker(model: TestPageModel): string {
  return model.organisationName ? `<strong>${escapeHtml(model.organisationName)}</strong>` : 'the organisation that gave you this link';
}

function purpose(model: TestPageModel): string {
  if (!model.hiring) return '';
  const url = safeHttpUrl(model.hiring.url);
  const posting = url ? ` (<a href="${escapeHtml(url)}" rel="noopener noreferrer" target="_blank">the job posting<span class="visually-hidden">, opens in a new tab</span></a>)` : '';
  return ` It is part of an application for <strong>${escapeHtml(model.hiring.role)}</strong>${posting}.`;
}

function whoSees(model: TestPageModel): string {
  // Said in full: a confirmed result makes the person "verified" across the service, so other
  // API users who look them up (group A by email, Connect by name or email) get it too.
  const beyond = model.mailConfirms
    ? '<li>We mail you a link. Only if you open it and confirm does your result also become your profile on this Rapport service: then other users who look you up by email or name see your name and personality profile (never your answers). Until then, nobody else sees it.</li>'
    : '<li>Nobody else on this Rapport service sees it: it does not become your profile here.</li>';
  return `<ul class="facts">
<li>Rapport stores your answers and result with your name and email.</li>
<li>${asker(model)} sees your name, email and personality result (not your answers to each statement).</li>
${beyond}
<li>You see your result as soon as you finish, and you can delete it from your result page at any time.</li>
</ul>`;
}

function emailBlock(model: TestPageModel): string {
  if (model.apiUserEmail) {
    return `<p>Your result is filed under <strong class="filed-under">${escapeHtml(model.apiUserEmail)}</strong>, the address ${asker(model)} gave in your link. If it is not yours, do not take the test: ask for a link with your own address.</p>
<input type="hidden" name="api_user_email" value="${escapeHtml(model.apiUserEmail)}">`;
  }
  return `<div class="field"><label for="email">Your email: your result is filed under it</label><input id="email" name="email" type="email" autocomplete="email" required maxlength="254" aria-describedby="email-hint" value="${escapeHtml(model.email ?? '')}">
<p class="hint" id="email-hint">${asker(model)} finds your result by this address.</p></div>`;
}

function introScreen(model: TestPageModel, q: Questionnaire): string {
  return `<section class="screen intro" data-screen="0" data-intro aria-labelledby="intro-title">
<h1 id="intro-title" tabindex="-1">Personality test</h1>
<div class="card">
<h2>Who is asking</h2>
<p>${model.organisationName ? `${asker(model)} asked you to take this test.` : 'The organisation that gave you this link asked you to take this test; it has not given its name on Rapport.'}${purpose(model)}</p>
<h2>What you get</h2>
<p>Your personality style, explained to you: what it means, your strengths and blind spots, how you tend to communicate and work, and what drains you. You can download it as a PDF and keep a private link to it.</p>
<h2>How long it takes</h2>
<p>${escapeHtml(q.items.length.toString())} short statements, about seven minutes. There are no right or wrong answers. ${escapeHtml(q.instructions)}</p>
<h2>Your email</h2>
${emailBlock(model)}
<h2>Who sees what</h2>
${whoSees(model)}
<div class="consent-box">
<label class="check" for="consent"><input type="checkbox" id="consent" name="consent" value="yes" required aria-describedby="consent-error"${model.consented ? ' checked' : ''}><span>I agree that Rapport stores my answers and result, and that ${asker(model)} sees my name, email and result.</span></label>
<p class="field-error" id="consent-error" role="alert" hidden>Tick the box to agree before you start.</p>
</div>
</div>
<div class="nav-buttons"><button type="button" data-next hidden>Start the test</button></div>
</section>`;
}

function detailsScreen(model: TestPageModel, index: number, total: number): string {
  return `<section class="screen" data-screen="${index}" aria-labelledby="screen-${index}-title">
<h2 id="screen-${index}-title" tabindex="-1">Part ${total} of ${total}: about you</h2>
<div class="card">
<p>Your first name is how your result speaks to you. Both are optional; ${asker(model)} sees them beside your result.</p>
<div class="field"><label for="first_name">First name</label><input id="first_name" name="first_name" type="text" autocomplete="given-name" maxlength="100" value="${escapeHtml(model.firstName ?? '')}"></div>
<div class="field"><label for="last_name">Last name</label><input id="last_name" name="last_name" type="text" autocomplete="family-name" maxlength="100" value="${escapeHtml(model.lastName ?? '')}"></div>
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
      const screen = index + 1;
      return `<section class="screen" data-screen="${screen}" aria-labelledby="screen-${screen}-title">
<h2 id="screen-${screen}-title" tabindex="-1">Part ${screen} of ${total}</h2>
<div class="error" role="alert" data-screen-error hidden></div>
${items}
<div class="nav-buttons"><button type="button" class="secondary" data-back hidden>Back</button><button type="button" data-next hidden>Next</button></div>
</section>`;
    })
    .join('\n');
  const body = `${errorBox(model.error)}
<div class="notice sent-notice" role="status" data-sent-notice hidden><p>You sent this test from this browser already: sending it again shows the same result, not a second one.</p><p><button type="button" class="secondary small" data-start-over>Take the test again as someone new</button></p></div>
<form method="post" action="${escapeHtml(model.action)}" id="test-form" data-storage-key="${escapeHtml(model.storageKey)}" data-total="${q.items.length}">
<div class="progress-wrap" hidden data-progress-wrap>
<p class="progress-text" id="progress-text" aria-live="polite">0 of ${q.items.length} answered</p>
<div class="progress" role="progressbar" aria-labelledby="progress-text" aria-valuemin="0" aria-valuemax="${q.items.length}" aria-valuenow="0"><div class="progress-bar"></div></div>
</div>
<input type="hidden" name="submission_id" value="${escapeHtml(model.submissionId)}">
${introScreen(model, q)}
${screens}
${detailsScreen(model, q.screens.length + 1, total)}
</form>`;
  return renderShell({ title: 'Personality test · Rapport', body, css: TEST_CSS, scripts: ['/assets/test.js'] });
}

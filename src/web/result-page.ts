/** The page a person sees as soon as they finish the test. */
import { cleanFirstName } from '../content/text.ts';
import { CONFIRMATION_HOURS } from '../mail/messages.ts';
import { renderShell } from './app-shell.ts';
import { escapeHtml, safeHttpUrl } from './html.ts';

export interface ResultPageModel {
  firstName: string | null;
  archetype: string;
  discType: string;
  discMapUrl: string;
  overview: string[];
  /** The taker's profile page, once they confirmed their address; null before. */
  profileUrl: string | null;
  /**
   * confirmed: the result is the taker's profile; awaiting: a link was mailed to confirm it;
   * lapsed: its link expired (or was never sent: mail was set up later); no-mail: the service
   * sends no mail. Unconfirmed, the result stays with whoever sent the test.
   */
  confirmation: 'confirmed' | 'awaiting' | 'lapsed' | 'no-mail';
  /** The delete link, shown only when the page was opened with the result's key. */
  deleteUrl: string | null;
}

const CSS = `
.result-head{display:flex;gap:16px;align-items:center;justify-content:space-between;flex-wrap:wrap}
.archetype{font-size:28px;font-weight:700;margin:0;line-height:1.2}
.disc-code{display:inline-block;padding:2px 12px;border-radius:8px;background:#1f2933;color:#fff;font-weight:700;letter-spacing:.5px}
.map img{display:block;width:100%;max-width:400px;height:auto;margin:0 auto}
.overview p{font-size:17px}
.actions{display:flex;gap:12px;flex-wrap:wrap;align-items:center}
.card.pending{border:2px solid #b45309;background:#fffbeb}
`;

export function renderResultPage(model: ResultPageModel): string {
  // The name as the advice below uses it, so the heading and the note agree with the overview.
  const firstName = cleanFirstName(model.firstName);
  const name = firstName ? `${firstName}, here` : 'Here';
  const map = safeHttpUrl(model.discMapUrl, { allowRootRelative: true });
  const profile = model.profileUrl === null ? null : safeHttpUrl(model.profileUrl, { allowRootRelative: true });
  const body = `<section class="card">
<p class="muted">Your result</p>
<h1>${escapeHtml(name)} is your personality style</h1>
<div class="result-head">
<div><p class="muted small">Archetype</p><p class="archetype">${escapeHtml(model.archetype)}</p></div>
<div><p class="muted small">DISC type</p><p><span class="disc-code">${escapeHtml(model.discType)}</span></p></div>
</div>
</section>
${confirmationCard(model)}
<section class="card map">
<h2>Your place on the DISC map</h2>
${map ? `<img src="${escapeHtml(map)}" alt="DISC map with your point in the ${escapeHtml(model.discType)} area" width="400" height="400">` : ''}
</section>
<section class="card overview">
<h2>How your profile reads to others</h2>
<p class="muted small">Written for the people who look you up in Rapport, so it speaks of you ${firstName ? 'by name' : 'as "this person"'}.</p>
${model.overview.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
</section>
<section class="card actions">
${profile ? `<a class="button" href="${escapeHtml(profile)}">See your full profile</a>` : ''}
${model.deleteUrl ? `<a class="button secondary" href="${escapeHtml(model.deleteUrl)}">Delete my result</a>` : ''}
</section>
${model.deleteUrl ? '<p class="muted small">Keep this page\'s address if you may want to delete your result later: the delete link works only from it.</p>' : ''}`;
  return renderShell({ title: 'Your result · Rapport', body, css: CSS, scripts: ['/assets/result.js'] });
}

/** Where the result stands: whose it is, and what makes it the taker's profile. */
function confirmationCard(model: ResultPageModel): string {
  if (model.confirmation === 'confirmed') return '';
  const texts = {
    awaiting: `<h2>Confirm your address to make this your profile</h2>
<p>We are mailing a link to the address you gave. Until you open it and press Confirm, your result stays with whoever sent you the test: it does not become your profile on Rapport, and nobody else sees it. The link works for ${CONFIRMATION_HOURS} hours.</p>`,
    lapsed: `<h2>This result stays with whoever sent you the test</h2>
<p>It was not confirmed: the link to confirm your address has expired, or was never sent. It does not become your profile on Rapport, and nobody else sees it. To make a result your profile, take the test again and open the link we mail you.</p>`,
    'no-mail': `<h2>This result stays with whoever sent you the test</h2>
<p>This Rapport service sends no mail, so it cannot confirm that the address you gave is yours: your result does not become your profile here, and nobody else sees it.</p>`,
  };
  const text = texts[model.confirmation];
  return `<section class="card pending" role="status">
${text}
</section>`;
}

/** `action` deletes; `keepUrl` goes back to the result, untouched. */
export function renderDeleteConfirmPage(action: string, key: string, keepUrl: string): string {
  return renderShell({
    title: 'Delete your result · Rapport',
    body: `<section class="card">
<h1>Delete your result?</h1>
<p>Your answers and your personality result are removed. If your profile existed before the test, it goes back to what it was; if the test created it, it is removed too. This cannot be undone.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="key" value="${escapeHtml(key)}">
<div class="actions"><button type="submit" class="danger">Delete my result</button> <a href="${escapeHtml(keepUrl)}">Keep my result</a></div>
</form>
</section>`,
  });
}

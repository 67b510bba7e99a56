/**
 * The page a person sees as soon as they finish the test, and again through its key or their
 * private link: their result, written to them. Its owner's view (the key) also holds the ways
 * to keep it: the PDF, a private link to share, and the delete link.
 */
import { CONFIRMATION_HOURS } from '../mail/messages.ts';
import { RESULT_LISTS } from '../content/taker/result.ts';
import { renderShell } from './app-shell.ts';
import { escapeHtml, safeHttpUrl } from './html.ts';
import { ABOUT_TEST, barValue, headline, LIST_TITLES, letterLines, standingLine, takenLine, type ResultReport } from './result-report.ts';
import { RESULT_CSS } from './result-page-style.ts';

/** What only the result's key opens: the PDF, the private link and the delete link. */
export interface OwnerTools {
  /** The result's key, posted back by the share forms. */
  key: string;
  pdfUrl: string;
  deleteUrl: string;
  /** The private link when there is one (absolute); null when there is none. */
  shareUrl: string | null;
  /** Where the share and unshare forms post. */
  shareAction: string;
  unshareAction: string;
  /** The page's link was mailed to the taker (with the confirmation link). */
  mailed: boolean;
}

export interface ResultPageModel {
  report: ResultReport;
  discMapUrl: string;
  /** The taker's profile page, once they confirmed their address; null before. */
  profileUrl: string | null;
  /**
   * confirmed: the result is the taker's profile; awaiting: a link was mailed to confirm it;
   * lapsed: its link expired (or was never sent: mail was set up later); no-mail: the service
   * sends no mail. Unconfirmed, the result stays with whoever sent the test.
   */
  confirmation: 'confirmed' | 'awaiting' | 'lapsed' | 'no-mail';
  /** The owner's view; null on the private link's read-only view. */
  owner: OwnerTools | null;
  /** The read-only view: its PDF. */
  sharedPdfUrl: string | null;
  /** The answers were sent before: this is the result they gave, stored once. */
  again: boolean;
}

function intro(model: ResultPageModel): string {
  const { report } = model;
  const r = report.result;
  const letters = letterLines(r).map((line) => `<li>${escapeHtml(line)}</li>`).join('');
  return `<section class="card hero" aria-labelledby="result-title">
<p class="eyebrow">${model.owner ? 'Your result' : `A result shared with you by ${escapeHtml(report.firstName ?? 'its taker')}`}</p>
<h1 id="result-title">${escapeHtml(headline(report))}: <span class="archetype">${escapeHtml(r.archetype)}</span> <span class="disc-code" aria-label="DISC type ${escapeHtml(r.discType)}">${escapeHtml(r.discType)}</span></h1>
<p class="gist">${escapeHtml(r.gist)}</p>
<div class="meaning">
<h2>What ${escapeHtml(r.discType)} and ${escapeHtml(r.archetype)} mean</h2>
${r.explanation.map((s) => `<p>${escapeHtml(s)}</p>`).join('\n')}
<ul class="letters">${letters}</ul>
<p class="muted small">DISC names four styles of dealing with people. Your type's capital letter is the style that leads; a small second letter is the one you lean toward; two capitals are two styles in equal measure. ${escapeHtml(r.archetype)} is the name of your area of the DISC map.</p>
</div>
<p class="muted small">${escapeHtml(takenLine(report))}</p>
</section>`;
}

function bars(model: ResultPageModel): string {
  const { report } = model;
  const rows = report.result.bars
    .map((bar) => {
      const standing = standingLine(bar, report.standing);
      const id = `bar-${bar.scale}`;
      return `<div class="bar">
<div class="bar-label"><span id="${id}">${escapeHtml(bar.name)}</span><strong>${escapeHtml(barValue(bar))}</strong></div>
<div class="track" role="img" aria-label="${escapeHtml(`${bar.name}: ${barValue(bar)}`)}"><div class="fill fill-${escapeHtml(bar.scale)}" style="width:${bar.value}%"></div></div>
<p class="means">${escapeHtml(bar.means)}${standing ? ` <span class="standing">${escapeHtml(standing)}</span>` : ''}</p>
</div>`;
    })
    .join('\n');
  const map = safeHttpUrl(model.discMapUrl, { allowRootRelative: true });
  const r = report.result;
  const later = report.standing === null ? '<p class="muted small">Once more people have taken this test here, you will also see where you stand among them.</p>' : '';
  return `<section class="card" aria-labelledby="glance-title">
<h2 id="glance-title">Your style at a glance</h2>
<div class="glance">
<div class="map">${map ? `<img src="${escapeHtml(map)}" alt="DISC map with your point in the ${escapeHtml(r.discType)} (${escapeHtml(r.archetype)}) area" width="360" height="360">` : ''}</div>
<div class="bars">
<p class="muted small">The first four bars split your place on the map among the four DISC styles (together 100 %); Thoroughness and Openness come from the test's own questions about how you work.</p>
${rows}
${later}
</div>
</div>
</section>`;
}

function lists(model: ResultPageModel): string {
  const card = (key: (typeof RESULT_LISTS)[number]) => `<section class="card list list-${key}" aria-labelledby="list-${key}">
<h2 id="list-${key}">${LIST_TITLES[key]}</h2>
<ul>${model.report.result.lists[key].map((s) => `<li>${escapeHtml(s)}</li>`).join('')}</ul>
</section>`;
  return `<div class="pair">${card('strengths')}${card('blindSpots')}</div>
<div class="trio">${card('communication')}${card('work')}${card('drains')}</div>`;
}

/** Where the result stands: whose it is, and what makes it the taker's profile. */
function confirmationCard(model: ResultPageModel): string {
  if (model.confirmation === 'confirmed' || !model.owner) return '';
  const texts = {
    awaiting: `<h2>Confirm your address to make this your profile</h2>
<p>We are mailing a link to ${escapeHtml(model.report.email ?? 'your address')}. Until you open it and press Confirm, your result stays with whoever sent you the test: it does not become your profile on Rapport, and nobody else sees it. The link works for ${CONFIRMATION_HOURS} hours.</p>`,
    lapsed: `<h2>This result stays with whoever sent you the test</h2>
<p>It was not confirmed: the link to confirm your address has expired, or was never sent. It does not become your profile on Rapport, and nobody else sees it. To make a result your profile, take the test again and open the link we mail you.</p>`,
    'no-mail': `<h2>This result stays with whoever sent you the test</h2>
<p>This Rapport service sends no mail, so it cannot confirm that the address you gave is yours: your result does not become your profile here, and nobody else sees it.</p>`,
  };
  return `<section class="card pending" role="status">
${texts[model.confirmation]}
</section>`;
}

function keepCard(model: ResultPageModel): string {
  const owner = model.owner;
  if (!owner) {
    return model.sharedPdfUrl ? `<section class="card actions"><a class="button" href="${escapeHtml(model.sharedPdfUrl)}" download>Download this result (PDF)</a></section>` : '';
  }
  const key = `<input type="hidden" name="key" value="${escapeHtml(owner.key)}">`;
  const share = owner.shareUrl
    ? `<label for="share-link">Your private link</label>
<div class="copy-line"><input id="share-link" type="text" readonly value="${escapeHtml(owner.shareUrl)}"><button type="button" class="secondary" data-copy="share-link" hidden>Copy link</button></div>
<p class="small" id="share-link-status" aria-live="polite"></p>
<p class="small">Anyone with this link can read your result (not delete it, and not see this page's tools). Turn it off when they no longer need it.</p>
<form method="post" action="${escapeHtml(owner.unshareAction)}">${key}<button type="submit" class="secondary">Turn the private link off</button></form>`
    : `<p>Make a private link to share your result with someone you choose. Anyone with the link can read it; you can turn it off at any time.</p>
<form method="post" action="${escapeHtml(owner.shareAction)}">${key}<button type="submit" class="secondary">Make a private link</button></form>`;
  return `<section class="card keep" aria-labelledby="keep-title">
<h2 id="keep-title">Keep your result</h2>
<p><a class="button" href="${escapeHtml(owner.pdfUrl)}" download>Download your result (PDF)</a></p>
<h3>Share it</h3>
${share}
<h3>Come back to it, or delete it</h3>
<p>This page's address is the key to your result: bookmark it to come back${owner.mailed ? `. We also mailed it to ${escapeHtml(model.report.email ?? 'your address')}` : ''}. Only this address opens the result's PDF, its private link and the link that deletes it.</p>
<p><a class="button danger" href="${escapeHtml(owner.deleteUrl)}">Delete my result</a></p>
</section>`;
}

export function renderResultPage(model: ResultPageModel): string {
  const profile = model.profileUrl === null ? null : safeHttpUrl(model.profileUrl, { allowRootRelative: true });
  const again = model.again
    ? '<div class="notice" role="status"><p>You sent these answers before: this is the result they gave. It is stored once.</p></div>'
    : '';
  const body = `${again}
${intro(model)}
${confirmationCard(model)}
${bars(model)}
${lists(model)}
${profile && model.owner ? `<section class="card actions"><p>Your result is your profile on this Rapport service now.</p><a class="button secondary" href="${escapeHtml(profile)}">See your profile as others see it</a></section>` : ''}
${keepCard(model)}
<section class="card about" aria-labelledby="about-title"><h2 id="about-title">About this result</h2><p class="small">${escapeHtml(ABOUT_TEST)}</p></section>`;
  return renderShell({ title: model.owner ? 'Your result · Rapport' : 'A shared result · Rapport', body, css: RESULT_CSS, scripts: ['/assets/result.js', '/assets/copy.js'], wide: true });
}

/** `action` deletes; `keepUrl` goes back to the result, untouched. */
export function renderDeleteConfirmPage(action: string, key: string, keepUrl: string): string {
  return renderShell({
    title: 'Delete your result · Rapport',
    body: `<section class="card">
<h1>Delete your result?</h1>
<p>Your answers and your personality result are removed, with its PDF and private link. If your profile existed before the test, it goes back to what it was; if the test created it, it is removed too. This cannot be undone.</p>
<form method="post" action="${escapeHtml(action)}">
<input type="hidden" name="key" value="${escapeHtml(key)}">
<div class="actions"><button type="submit" class="danger">Delete my result</button> <a href="${escapeHtml(keepUrl)}">Keep my result</a></div>
</form>
</section>`,
  });
}

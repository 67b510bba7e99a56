/** The dashboard's people: who took the test (searchable, exportable, removable) and the hiring links (copyable, closable). */
import { escapeHtml } from './html.ts';
import type { DashboardModel } from './dashboard-page.ts';

function takerStatus(model: DashboardModel, taker: DashboardModel['takers'][number]): string {
  if (taker.profileUrl) return `<a href="${escapeHtml(taker.profileUrl)}">Profile<span class="visually-hidden"> of ${escapeHtml(taker.name)}</span></a>`;
  return model.mailEnabled ? '<span class="muted small">Not confirmed yet</span>' : '<span class="muted small">Yours only</span>';
}

/** Whose a result is, said where the results are listed. */
function takersExplanation(model: DashboardModel): string {
  return model.mailEnabled
    ? '<p class="muted small">A result is yours at once, here and through <code>/find</code>. It becomes the person\'s profile on Rapport (group A\'s lookups, Connect) only once they confirm their address through the link we mail them.</p>'
    : '<p class="notice small" role="note">This Rapport service sends no mail, so results stay with you, here and through <code>/find</code>: they never become the takers\' profiles on Rapport (group A\'s lookups, Connect).</p>';
}

function removeLink(taker: DashboardModel['takers'][number]): string {
  return `<a class="small" href="/dashboard/takers/remove?email=${encodeURIComponent(taker.email)}">Remove<span class="visually-hidden"> ${escapeHtml(taker.name === '—' ? taker.email : taker.name)}</span></a>`;
}

function searchForm(model: DashboardModel): string {
  const q = model.query;
  const csv = `/dashboard/takers.csv${q ? `?q=${encodeURIComponent(q)}` : ''}`;
  return `<form method="get" action="/dashboard" class="search" role="search">
<div class="row">
<div class="field"><label for="q">Search by name or email</label><input id="q" name="q" type="search" maxlength="200" value="${escapeHtml(q)}"></div>
<div class="field buttons"><button type="submit" class="secondary">Search</button>${q ? ' <a href="/dashboard#takers-title">Show everyone</a>' : ''}</div>
</div>
</form>
<p class="small"><a href="${escapeHtml(csv)}" download>Download ${q ? 'these people' : 'everyone'} as CSV</a> <span class="muted">(date, name, email, type, hiring role, profile link; opens in a spreadsheet)</span></p>`;
}

export function takersCard(model: DashboardModel): string {
  const rows = model.takers
    .map(
      (t) => `<tr><td data-label="Name">${escapeHtml(t.name)}</td><td data-label="Email" class="email">${escapeHtml(t.email)}</td><td data-label="Type">${escapeHtml(t.discType)} · ${escapeHtml(t.archetype)}</td><td data-label="Date">${escapeHtml(t.takenAt.toISOString().slice(0, 10))}</td><td data-label="Hiring">${t.role ? escapeHtml(t.role) : '—'}</td><td data-label="Profile">${takerStatus(model, t)}</td><td data-label="">${removeLink(t)}</td></tr>`,
    )
    .join('\n');
  const shown = model.takers.length < model.takersTotal ? `<p class="muted small">Showing the newest ${model.takers.length} of ${model.takersTotal}; search to narrow them down, or download them all as CSV.</p>` : '';
  const empty = model.query ? `<p>No one matches “${escapeHtml(model.query)}”.</p>` : '<p class="muted">No one yet. Share your button or a hiring link.</p>';
  return `<section class="card" aria-labelledby="takers-title">
<h2 id="takers-title">People who took your test${model.takersTotal > 0 ? ` <span class="count">(${model.takersTotal})</span>` : ''}</h2>
${takersExplanation(model)}
${model.takersTotal > 0 || model.query ? searchForm(model) : ''}
${
  model.takers.length === 0
    ? empty
    : `${shown}<div class="scroll"><table class="stack"><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Type</th><th scope="col">Date</th><th scope="col">Hiring</th><th scope="col">Profile</th><th scope="col"><span class="visually-hidden">Remove</span></th></tr></thead><tbody>
${rows}
</tbody></table></div>`
}
</section>`;
}

function hiringRow(model: DashboardModel, h: DashboardModel['hiring'][number], index: number): string {
  const id = `hiring-link-${index}`;
  const link = h.closedAt
    ? `<span class="muted">Closed ${escapeHtml(h.closedAt.toISOString().slice(0, 10))}: takes no more tests</span>`
    : `<div class="cell"><code id="${id}" class="link">${escapeHtml(h.testUrl)}</code><div class="copy-row"><button type="button" class="secondary small" data-copy="${id}" hidden>Copy link<span class="visually-hidden"> for ${escapeHtml(h.role)}</span></button><span class="small" id="${id}-status" aria-live="polite"></span></div></div>`;
  const close = h.closedAt
    ? ''
    : `<form method="post" action="/dashboard/hiring/close"><input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}"><input type="hidden" name="id" value="${escapeHtml(h.id)}"><button type="submit" class="secondary small">Close<span class="visually-hidden"> the link for ${escapeHtml(h.role)}</span></button></form>`;
  return `<tr${h.closedAt ? ' class="closed"' : ''}><td data-label="Role">${escapeHtml(h.role)}</td><td data-label="Job posting"><a href="${escapeHtml(h.url)}" rel="noopener noreferrer">${escapeHtml(h.url)}</a></td><td data-label="Test link">${link}</td><td data-label="">${close}</td></tr>`;
}

export function hiringCard(model: DashboardModel): string {
  const rows = model.hiring.map((h, i) => hiringRow(model, h, i)).join('\n');
  return `<section class="card" aria-labelledby="hiring-title">
<h2 id="hiring-title">Hiring links</h2>
<p class="muted small">People who take the test through a hiring link get that role and job posting on their record (the <code>hiring</code> field of <code>/find</code> with <code>options[hiring]=true</code>). Close a link when the role is filled: it takes no more tests, and the results it brought stay.</p>
${model.hiring.length > 0 ? `<div class="scroll"><table class="stack"><thead><tr><th scope="col">Role</th><th scope="col">Job posting</th><th scope="col">Test link</th><th scope="col"><span class="visually-hidden">Close</span></th></tr></thead><tbody>\n${rows}\n</tbody></table></div>` : ''}
<form method="post" action="/dashboard/hiring" style="margin-top:14px">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">
<div class="row">
<div class="field"><label for="role">Role</label><input id="role" name="role" type="text" required maxlength="200"></div>
<div class="field"><label for="posting">Job posting URL</label><input id="posting" name="url" type="url" required maxlength="2000" placeholder="https://"></div>
<div class="field buttons"><button type="submit">Create hiring link</button></div>
</div>
</form>
</section>`;
}

/** Asks before a taker's results go: removing cannot be undone. */
export function removeTakerBody(csrf: string, taker: { email: string; name: string; results: number }): string {
  return `<section class="card">
<h1>Remove ${escapeHtml(taker.name === '—' ? taker.email : taker.name)}?</h1>
<p>${taker.results === 1 ? 'Their result' : `Their ${taker.results} results`} for <strong>${escapeHtml(taker.email)}</strong>, taken through your links, are deleted: they leave your dashboard and <code>/find</code>. A result they confirmed as their profile on Rapport goes too. Their results with other users stay. This cannot be undone.</p>
<form method="post" action="/dashboard/takers/remove">
<input type="hidden" name="csrf" value="${escapeHtml(csrf)}">
<input type="hidden" name="email" value="${escapeHtml(taker.email)}">
<div class="actions"><button type="submit" class="danger">Remove their results</button> <a href="/dashboard#takers-title">Keep them</a></div>
</form>
</section>`;
}

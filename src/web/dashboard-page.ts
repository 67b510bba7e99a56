/** A registered user's dashboard: API token, usage, test takers, hiring links, the button's code. */
import { errorBox, renderShell } from './app-shell.ts';
import { escapeHtml } from './html.ts';

export interface DashboardModel {
  email: string;
  csrf: string;
  /** The user's test link, absolute. */
  testUrl: string;
  token: { prefix: string; createdAt: Date } | null;
  /** A token just made: its secret, shown this once. */
  newSecret: string | null;
  usage: { callsThisMonth: number; monthlyQuota: number | null; rateLimitPerMinute: number | null; month: string } | null;
  /** profileUrl: the person's profile page once they confirmed their address; null before (and always without mail). */
  takers: { name: string; email: string; discType: string; archetype: string; takenAt: Date; profileUrl: string | null; role: string | null }[];
  /** The service sends mail: results become profiles once confirmed, and tokens need a confirmed address. */
  mailEnabled: boolean;
  /** Mail is set up and this account's address is not confirmed yet: no token until it is. */
  mustConfirmForToken: boolean;
  hiring: { role: string; url: string; testUrl: string; createdAt: Date }[];
  error?: string | null;
  notice?: string | null;
  /** Warnings from other parts (a disabled webhook endpoint), HTML, shown at the top. */
  alerts?: string[];
  /** Cards from other parts (webhooks), HTML, shown after the dashboard's own. */
  sections?: string[];
}

const CSS = `
.usage-numbers{display:flex;gap:24px;flex-wrap:wrap}
.usage-numbers div{min-width:140px}
.usage-numbers strong{display:block;font-size:24px}
.meter{height:10px;border-radius:5px;background:#d9dee4;overflow:hidden;margin:10px 0 0}
.meter div{height:100%;background:#1d4ed8}
.copy-row{display:flex;gap:10px;align-items:center;margin:8px 0 0}
.preview{padding:12px;border:1px dashed #9aa5b1;border-radius:8px;margin:10px 0 0}
td a,.small a{overflow-wrap:anywhere}
@media (max-width:640px){table.stack thead{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}table.stack tr{display:block;border-bottom:1px solid #e4e7eb;padding:6px 0}table.stack td{display:flex;gap:10px;border:0;padding:3px 0}table.stack td::before{content:attr(data-label);flex:none;width:90px;color:#52606d;font-weight:600}}
.rapport-test-button{display:inline-block;padding:10px 18px;border-radius:8px;background:#1d4ed8;color:#fff;font-weight:600;text-decoration:none}
`;

/** The snippet the user pastes into their app. Inline styles only, so it needs no style sheet of theirs. */
export function buttonSnippet(testUrl: string, withEmail: boolean): string {
  const href = withEmail ? `${testUrl}?api_user_email=ENCODED_EMAIL` : testUrl;
  return `<a href="${href}" target="_blank" rel="noopener" style="display:inline-block;padding:10px 18px;border-radius:8px;background:#1d4ed8;color:#fff;font:600 16px system-ui,sans-serif;text-decoration:none">Take Personality Test</a>`;
}

function tokenCard(model: DashboardModel): string {
  const csrf = `<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">`;
  const secret = model.newSecret
    ? `<div class="notice" role="status"><p><strong>Your new API token.</strong> Copy it now: it is not shown again.</p>
<p class="secret"><code id="new-token">${escapeHtml(model.newSecret)}</code></p>
<div class="copy-row"><button type="button" class="secondary" data-copy="new-token" hidden>Copy token</button><span id="new-token-status" aria-live="polite"></span></div></div>`
    : '';
  if (model.mustConfirmForToken) {
    return `<section class="card" aria-labelledby="token-title">
<h2 id="token-title">API token</h2>
<p>Confirm your email address to create your API token: we mail a link to <strong>${escapeHtml(model.email)}</strong>.</p>
<form method="post" action="/dashboard/confirm-email">${csrf}<button type="submit">Mail me the link</button></form>
</section>`;
  }
  const current = model.token
    ? `<p>Live token: <code>${escapeHtml(model.token.prefix)}…</code>, made ${escapeHtml(model.token.createdAt.toISOString().slice(0, 10))}. Rotating makes a new one and revokes this one at once.</p>`
    : '<p>You have no API token yet.</p>';
  // Rotating revokes the live token at once: the box must be ticked (checked again on the server).
  const tokenForm = model.token
    ? `<form method="post" action="/dashboard/token">${csrf}
<label class="check"><input type="checkbox" name="confirm" value="rotate" required><span>Revoke <code>${escapeHtml(model.token.prefix)}…</code> now: every app that uses it gets 401 until it has the new token.</span></label>
<button type="submit" class="secondary">Rotate token</button></form>`
    : `<form method="post" action="/dashboard/token">${csrf}<button type="submit">Create token</button></form>`;
  return `<section class="card" aria-labelledby="token-title">
<h2 id="token-title">API token</h2>
${secret}
${current}
${tokenForm}
</section>`;
}

function usageCard(model: DashboardModel): string {
  if (!model.usage) return '';
  const u = model.usage;
  const pct = u.monthlyQuota ? Math.min(100, Math.round((u.callsThisMonth / u.monthlyQuota) * 100)) : 0;
  return `<section class="card" aria-labelledby="usage-title">
<h2 id="usage-title">Usage in ${escapeHtml(u.month)}</h2>
<div class="usage-numbers">
<div><strong>${u.callsThisMonth.toLocaleString('en-US')}</strong>calls this month</div>
<div><strong>${u.monthlyQuota === null ? 'no limit' : u.monthlyQuota.toLocaleString('en-US')}</strong>free calls a month</div>
<div><strong>${u.rateLimitPerMinute === null ? 'no limit' : u.rateLimitPerMinute.toLocaleString('en-US')}</strong>calls a minute at most</div>
</div>
${u.monthlyQuota ? `<div class="meter" role="img" aria-label="${pct}% of this month's free calls used"><div style="width:${pct}%"></div></div>` : ''}
</section>`;
}

function buttonCard(model: DashboardModel): string {
  const snippet = buttonSnippet(model.testUrl, true);
  return `<section class="card" aria-labelledby="button-title">
<h2 id="button-title">Your test button</h2>
<p>Paste this into your app. Replace <code>ENCODED_EMAIL</code> with the person's email, URL-encoded (<code>encodeURIComponent(email)</code>), so their result is filed under it and you can look them up; or leave out <code>?api_user_email=…</code> and the person gives their email on the test page.</p>
<label for="button-code">Button code</label>
<textarea id="button-code" class="code" readonly>${escapeHtml(snippet)}</textarea>
<div class="copy-row"><button type="button" class="secondary" data-copy="button-code" hidden>Copy code</button><span id="button-code-status" aria-live="polite"></span></div>
<p class="small" style="margin-top:12px">Your test link: <a href="${escapeHtml(model.testUrl)}">${escapeHtml(model.testUrl)}</a></p>
<div class="preview"><span class="muted small">Preview:</span> <a class="rapport-test-button" href="${escapeHtml(model.testUrl)}">Take Personality Test</a></div>
</section>`;
}

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

function takersCard(model: DashboardModel): string {
  const rows = model.takers
    .map(
      (t) => `<tr><td data-label="Name">${escapeHtml(t.name)}</td><td data-label="Email">${escapeHtml(t.email)}</td><td data-label="Type">${escapeHtml(t.discType)} · ${escapeHtml(t.archetype)}</td><td data-label="Date">${escapeHtml(t.takenAt.toISOString().slice(0, 10))}</td><td data-label="Hiring">${t.role ? escapeHtml(t.role) : '—'}</td><td data-label="">${takerStatus(model, t)}</td></tr>`,
    )
    .join('\n');
  return `<section class="card" aria-labelledby="takers-title">
<h2 id="takers-title">People who took your test</h2>
${takersExplanation(model)}
${
  model.takers.length === 0
    ? '<p class="muted">No one yet. Share your button or a hiring link.</p>'
    : `<div class="scroll"><table class="stack"><thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Type</th><th scope="col">Date</th><th scope="col">Hiring</th><th scope="col"><span class="visually-hidden">Link</span></th></tr></thead><tbody>
${rows}
</tbody></table></div>`
}
</section>`;
}

function hiringCard(model: DashboardModel): string {
  const rows = model.hiring
    .map(
      (h) => `<tr><td data-label="Role">${escapeHtml(h.role)}</td><td data-label="Job posting"><a href="${escapeHtml(h.url)}" rel="noopener noreferrer">${escapeHtml(h.url)}</a></td><td data-label="Test link"><a href="${escapeHtml(h.testUrl)}">${escapeHtml(h.testUrl)}</a></td></tr>`,
    )
    .join('\n');
  return `<section class="card" aria-labelledby="hiring-title">
<h2 id="hiring-title">Hiring links</h2>
<p class="muted small">People who take the test through a hiring link get that role and job posting on their record (the <code>hiring</code> field of <code>/find</code> with <code>options[hiring]=true</code>).</p>
${model.hiring.length > 0 ? `<div class="scroll"><table class="stack"><thead><tr><th scope="col">Role</th><th scope="col">Job posting</th><th scope="col">Test link</th></tr></thead><tbody>\n${rows}\n</tbody></table></div>` : ''}
<form method="post" action="/dashboard/hiring" style="margin-top:14px">
<input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}">
<div class="row">
<div class="field"><label for="role">Role</label><input id="role" name="role" type="text" required maxlength="200"></div>
<div class="field"><label for="posting">Job posting URL</label><input id="posting" name="url" type="url" required maxlength="2000" placeholder="https://"></div>
<div class="field" style="flex:none"><button type="submit">Create hiring link</button></div>
</div>
</form>
</section>`;
}

export function renderDashboard(model: DashboardModel): string {
  const body = `<nav class="top"><a class="brand" href="/dashboard">Rapport</a>
<form method="post" action="/logout" class="inline"><input type="hidden" name="csrf" value="${escapeHtml(model.csrf)}"><span class="muted small">${escapeHtml(model.email)}</span> <button type="submit" class="secondary">Log out</button></form></nav>
<h1>Dashboard</h1>
${model.notice ? `<div class="notice" role="status">${escapeHtml(model.notice)}</div>` : ''}
${errorBox(model.error)}
${(model.alerts ?? []).join('\n')}
${tokenCard(model)}
${usageCard(model)}
${buttonCard(model)}
${takersCard(model)}
${hiringCard(model)}
${(model.sections ?? []).join('\n')}`;
  return renderShell({
    title: 'Dashboard · Rapport',
    body,
    css: `${CSS}.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}`,
    scripts: ['/assets/dashboard.js'],
    wide: true,
  });
}

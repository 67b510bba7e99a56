/**
 * The frame of the service's own pages (test, result, sign-up, log-in, dashboard): one style
 * sheet inline, scripts only from this origin (/assets/…), nothing from another host.
 */
import { escapeHtml } from './html.ts';

const CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:#f4f6f8;color:#1f2933;line-height:1.5;font-size:16px}
main{max-width:760px;margin:0 auto;padding:8px 16px 48px}
main.wide{max-width:1040px}
.site-head{max-width:1040px;margin:0 auto;padding:14px 16px 6px;display:flex;justify-content:space-between;align-items:center;gap:12px;flex-wrap:wrap}
.site-head.narrow,.site-foot.narrow{max-width:760px}
.site-head .brand{display:inline-flex;align-items:center;gap:8px;font-weight:700;font-size:18px;color:#1f2933;text-decoration:none}
.site-head .brand img{width:24px;height:24px}
.site-head .head-right{display:flex;align-items:center;gap:10px;flex-wrap:wrap}
.site-foot{max-width:1040px;margin:0 auto;padding:0 16px 28px;font-size:14px;color:#52606d;text-align:center}
.site-foot a{color:#334e68}
.card{background:#fff;border:1px solid #d9dee4;border-radius:14px;padding:20px;margin:0 0 18px}
h1{font-size:26px;line-height:1.25;margin:0 0 8px}
h2{font-size:19px;margin:0 0 12px}
h3{font-size:16px;margin:0 0 8px}
p{margin:0 0 12px}
a{color:#1d4ed8}
.muted{color:#52606d}
.small{font-size:14px}
.eyebrow{margin:0 0 4px;font-size:13px;font-weight:600;text-transform:uppercase;letter-spacing:1px;color:#52606d}
label{display:block;font-weight:600;margin:0 0 4px}
input[type=email],input[type=text],input[type=password],input[type=url],input[type=search]{width:100%;font:inherit;padding:10px 12px;border:1px solid #7b8794;border-radius:8px;background:#fff;color:#1f2933}
.field{margin:0 0 14px}
.hint{font-size:14px;color:#52606d;margin:4px 0 0}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:10px 18px;border-radius:8px;border:2px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;text-decoration:none;line-height:1.4}
button.secondary,.button.secondary{background:#fff;color:#1d4ed8}
button.danger,.button.danger{background:#b91c1c;border-color:#b91c1c;color:#fff}
button.link{background:none;border:0;padding:0;color:#1d4ed8;text-decoration:underline;font-weight:400}
button.small,.button.small{padding:6px 12px;font-size:14px}
label.check{display:flex;gap:10px;align-items:flex-start;font-weight:400;margin:0 0 12px}
label.check input{flex:none;width:22px;height:22px;margin:1px 0 0;accent-color:#1d4ed8}
.actions{display:flex;gap:12px;flex-wrap:wrap;align-items:center}
button:focus-visible,a:focus-visible,input:focus-visible,textarea:focus-visible,summary:focus-visible,[tabindex]:focus-visible{outline:3px solid #b45309;outline-offset:2px}
.error{border:2px solid #b91c1c;background:#fef2f2;color:#7f1d1d;border-radius:8px;padding:10px 12px;margin:0 0 14px}
.notice{border:2px solid #15803d;background:#f0fdf4;color:#14532d;border-radius:8px;padding:10px 12px;margin:0 0 14px}
.notice p:last-child,.error p:last-child{margin:0}
table{width:100%;border-collapse:collapse;font-size:15px}
th,td{text-align:left;padding:8px 6px;border-bottom:1px solid #e4e7eb;vertical-align:top}
th{color:#52606d;font-weight:600}
.scroll{overflow-x:auto}
code,pre,textarea.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:14px}
code{overflow-wrap:anywhere}
textarea.code{width:100%;min-height:110px;padding:10px;border:1px solid #7b8794;border-radius:8px;background:#f8fafc;color:#1f2933}
.secret{word-break:break-all;background:#fff7ed;border:2px solid #c2410c;border-radius:8px;padding:10px 12px}
.inline{display:inline}
.row{display:flex;gap:12px;flex-wrap:wrap;align-items:flex-end}
.row .field{flex:1;min-width:200px}
.visually-hidden{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.message{text-align:center;padding:36px 20px}
.message .code{font-size:15px;font-weight:700;color:#52606d;margin:0 0 6px}
`;

export interface ShellOptions {
  title: string;
  body: string;
  /** Extra CSS for this page. */
  css?: string;
  /** Scripts served by this service, e.g. '/assets/test.js'. */
  scripts?: string[];
  wide?: boolean;
  /** Shown at the right of the header: the user's address and a log-out button, say. */
  headerRight?: string;
  /** Where the brand links to (the start page unless the page is a logged-in one). */
  homeHref?: string;
}

/**
 * Scripts and forms only to this origin; inline styles only (no inline script can run, so
 * markup that ever slipped past escaping could not act). Sent as a header too
 * (src/http/web/forms.ts): browsers ignore frame-ancestors in a <meta> tag, and these pages
 * (log-in, dashboard, the test) must not be framed by a page that could trick a click on them.
 */
const PAGE_CSP = "default-src 'none'; script-src 'self'; img-src 'self'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'";
/** The header's policy; the <meta> copy leaves frame-ancestors out (browsers ignore it there, with a console warning). */
export const APP_PAGE_CSP = `${PAGE_CSP}; frame-ancestors 'none'`;

export function renderShell(options: ShellOptions): string {
  const scripts = (options.scripts ?? []).map((src) => `<script src="${escapeHtml(src)}" defer></script>`).join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="${PAGE_CSP}">
<meta name="robots" content="noindex">
<meta name="referrer" content="same-origin">
<link rel="icon" href="/assets/favicon.svg" type="image/svg+xml">
<title>${escapeHtml(options.title)}</title>
<style>${CSS}${options.css ?? ''}</style>
${scripts}
</head>
<body>
<header class="site-head${options.wide ? '' : ' narrow'}"><a class="brand" href="${escapeHtml(options.homeHref ?? '/')}"><img src="/assets/favicon.svg" alt="" width="24" height="24">Rapport</a>${options.headerRight ? `<div class="head-right">${options.headerRight}</div>` : ''}</header>
<main${options.wide ? ' class="wide"' : ''}>
${options.body}
</main>
<footer class="site-foot">Rapport, a self-hosted personality service · <a href="/">About</a> · <a href="/docs">API docs</a></footer>
</body>
</html>
`;
}

/**
 * A page that only says something (a result deleted, an address confirmed) or that something
 * went wrong, with a way on. Every HTML error of the service is this page, with its status
 * code above the title when there is one (src/http/common/html-errors.ts, src/http/web/forms.ts).
 */
export function renderMessagePage(title: string, message: string, link?: { href: string; text: string }, status?: number): string {
  const way = link ?? { href: '/', text: 'Go to the start page' };
  return renderShell({
    title: `${title} · Rapport`,
    body: `<section class="card message">
${status !== undefined && status >= 400 ? `<p class="code">Error ${status}</p>` : ''}
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p><a class="button" href="${escapeHtml(way.href)}">${escapeHtml(way.text)}</a></p>
</section>`,
  });
}

export function errorBox(message: string | null | undefined): string {
  return message ? `<div class="error" role="alert">${escapeHtml(message)}</div>` : '';
}

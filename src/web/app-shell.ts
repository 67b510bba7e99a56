/**
 * The frame of the service's own pages (test, result, sign-up, log-in, dashboard): one style
 * sheet inline, scripts only from this origin (/assets/…), nothing from another host.
 */
import { escapeHtml } from './html.ts';

const CSS = `
*{box-sizing:border-box}
body{margin:0;font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;background:#f4f6f8;color:#1f2933;line-height:1.5;font-size:16px}
main{max-width:760px;margin:0 auto;padding:20px 16px 48px}
main.wide{max-width:1040px}
.card{background:#fff;border:1px solid #d9dee4;border-radius:14px;padding:20px;margin:0 0 18px}
h1{font-size:26px;line-height:1.25;margin:0 0 8px}
h2{font-size:19px;margin:0 0 12px}
p{margin:0 0 12px}
a{color:#1d4ed8}
.muted{color:#52606d}
.small{font-size:14px}
label{display:block;font-weight:600;margin:0 0 4px}
input[type=email],input[type=text],input[type=password],input[type=url]{width:100%;font:inherit;padding:10px 12px;border:1px solid #7b8794;border-radius:8px;background:#fff;color:#1f2933}
.field{margin:0 0 14px}
button,.button{display:inline-block;font:inherit;font-weight:600;padding:10px 18px;border-radius:8px;border:2px solid #1d4ed8;background:#1d4ed8;color:#fff;cursor:pointer;text-decoration:none}
button.secondary,.button.secondary{background:#fff;color:#1d4ed8}
button.danger{background:#b91c1c;border-color:#b91c1c;color:#fff}
label.check{display:flex;gap:8px;align-items:flex-start;font-weight:400;margin:0 0 12px}
label.check input{margin-top:4px}
.actions{display:flex;gap:12px;flex-wrap:wrap;align-items:center}
button:focus-visible,a:focus-visible,input:focus-visible,textarea:focus-visible{outline:3px solid #f59e0b;outline-offset:2px}
.error{border:2px solid #b91c1c;background:#fef2f2;color:#7f1d1d;border-radius:8px;padding:10px 12px;margin:0 0 14px}
.notice{border:2px solid #15803d;background:#f0fdf4;color:#14532d;border-radius:8px;padding:10px 12px;margin:0 0 14px}
nav.top{display:flex;justify-content:space-between;align-items:center;gap:12px;margin:0 0 16px;flex-wrap:wrap}
nav.top .brand{font-weight:700;font-size:18px;color:#1f2933;text-decoration:none}
table{width:100%;border-collapse:collapse;font-size:15px}
th,td{text-align:left;padding:8px 6px;border-bottom:1px solid #e4e7eb;vertical-align:top}
th{color:#52606d;font-weight:600}
.scroll{overflow-x:auto}
code,pre,textarea.code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:14px}
textarea.code{width:100%;min-height:110px;padding:10px;border:1px solid #7b8794;border-radius:8px;background:#f8fafc;color:#1f2933}
.secret{word-break:break-all;background:#fff7ed;border:2px solid #c2410c;border-radius:8px;padding:10px 12px}
.inline{display:inline}
.row{display:flex;gap:12px;flex-wrap:wrap;align-items:flex-end}
.row .field{flex:1;min-width:200px}
`;

export interface ShellOptions {
  title: string;
  body: string;
  /** Extra CSS for this page. */
  css?: string;
  /** Scripts served by this service, e.g. '/assets/test.js'. */
  scripts?: string[];
  wide?: boolean;
}

/**
 * Scripts and forms only to this origin; inline styles only (no inline script can run, so
 * markup that ever slipped past escaping could not act). Sent as a header too
 * (src/api/web/forms.ts): browsers ignore frame-ancestors in a <meta> tag, and these pages
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
<main${options.wide ? ' class="wide"' : ''}>
${options.body}
</main>
</body>
</html>
`;
}

/** A page that only says something went wrong (or is gone), with a way back. */
export function renderMessagePage(title: string, message: string, link?: { href: string; text: string }): string {
  return renderShell({
    title: `${title} · Rapport`,
    body: `<section class="card">
<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.text)}</a></p>` : ''}
</section>`,
  });
}

export function errorBox(message: string | null | undefined): string {
  return message ? `<div class="error" role="alert">${escapeHtml(message)}</div>` : '';
}

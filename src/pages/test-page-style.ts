/**
 * The test page's style. On a phone each statement's five answers sit in one row of large
 * targets with the scale's two ends written under it (each answer keeps its full label for
 * screen readers), so a screen of six statements is about a phone's height, not three.
 */
export const TEST_CSS = `
html{scroll-padding-top:90px}
.intro h1{margin:8px 0 12px}
.intro .card h2{font-size:16px;margin:18px 0 6px}
.intro .card h2:first-child{margin-top:0}
ul.facts{margin:0 0 12px;padding-left:20px}
ul.facts li{margin:0 0 6px}
.consent-box{border:2px solid #1d4ed8;border-radius:10px;padding:12px 14px 2px;background:#f5f8ff;margin:14px 0 0}
.field-error{color:#991b1b;font-weight:600;margin:-4px 0 10px}
.progress-wrap{position:sticky;top:0;z-index:2;background:#f4f6f8;padding:8px 0 10px;margin:0 0 8px}
.progress-text{font-size:14px;color:#52606d;margin:0 0 4px}
.progress{height:10px;border-radius:5px;background:#d9dee4;overflow:hidden}
.progress-bar{height:100%;width:0;background:#1d4ed8;transition:width .2s}
.screen > h2{font-size:17px;color:#3e4c59;margin:0 0 10px}
.screen > h2:focus,.intro h1:focus{outline:none}
fieldset.item{border:1px solid #d9dee4;border-radius:12px;margin:0 0 14px;padding:12px 14px 14px;background:#fff}
fieldset.item legend{font-weight:600;font-size:17px;padding:0 4px;float:left;width:100%;margin:0 0 8px}
fieldset.item legend .num{color:#52606d;font-weight:500;margin-right:6px}
.scale{clear:both;display:grid;grid-template-columns:repeat(5,minmax(0,1fr));gap:6px}
.scale label{position:relative;display:flex;flex-direction:column;align-items:center;gap:4px;font-weight:500;font-size:13px;text-align:center;padding:8px 4px;border:1px solid #9aa5b1;border-radius:8px;cursor:pointer;color:#323f4b;line-height:1.25;margin:0}
.scale input{width:20px;height:20px;margin:0;accent-color:#1d4ed8}
.scale label:has(input:checked){border-color:#1d4ed8;background:#e8efff;color:#1e3a8a;box-shadow:inset 0 0 0 1px #1d4ed8}
.scale label:has(input:focus-visible){outline:3px solid #b45309;outline-offset:2px}
.scale-ends{display:none}
.item-error{clear:both;color:#991b1b;font-weight:600;margin:8px 0 0}
fieldset.item.missing{border:2px solid #b91c1c}
fieldset.item.missing label:has(input:focus){outline:3px solid #b45309;outline-offset:2px}
.nav-buttons{display:flex;justify-content:space-between;gap:12px;margin:6px 0 18px}
.nav-buttons [hidden]{display:none}
.nav-buttons [data-next],.nav-buttons [type=submit]{margin-left:auto}
.js .screen{display:none}.js .screen.current{display:block}
.sent-notice p{margin:0 0 8px}
@media (max-width:560px){
  fieldset.item{padding:10px 10px 8px}
  fieldset.item legend{font-size:16px}
  .scale{gap:4px}
  .scale label{padding:0;min-height:48px;justify-content:center;border-radius:24px}
  .scale input{width:24px;height:24px}
  .scale .opt-text{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
  .scale-ends{display:flex;justify-content:space-between;gap:12px;font-size:13px;color:#52606d;margin:4px 2px 0}
}
`;

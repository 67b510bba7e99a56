/** The result page's style: the DISC colours of the profile page, two columns on a wide screen, one on a phone. */
export const RESULT_CSS = `
.hero h1{font-size:28px;margin:0 0 10px}
.hero .archetype{color:#1e3a8a}
.disc-code{display:inline-block;vertical-align:middle;font-size:18px;padding:2px 12px;border-radius:8px;background:#1f2933;color:#fff;font-weight:700;letter-spacing:.5px}
.gist{font-size:19px;color:#323f4b}
.meaning{border-top:1px solid #e4e7eb;padding-top:14px;margin-top:4px}
.meaning h2{font-size:17px}
ul.letters{list-style:none;padding:0;margin:0 0 10px;display:flex;flex-wrap:wrap;gap:8px}
ul.letters li{background:#eef2ff;color:#1e3a8a;border-radius:999px;padding:3px 12px;font-size:15px;font-weight:600}
.glance{display:grid;grid-template-columns:minmax(0,5fr) minmax(0,7fr);gap:24px;align-items:start}
.map img{display:block;width:100%;max-width:360px;height:auto;margin:0 auto}
.bar{margin:0 0 14px}
.bar-label{display:flex;justify-content:space-between;gap:10px;font-size:15px;margin-bottom:4px}
.track{height:10px;border-radius:5px;background:#e4e7eb;overflow:hidden}
.fill{height:100%;border-radius:5px;background:#1f2933}
.fill-d{background:#c2392f}.fill-i{background:#c27c0e}.fill-s{background:#2f855a}.fill-c{background:#2b6cb0}
.fill-conscientiousness,.fill-openness{background:#6b46c1}
.means{font-size:14px;color:#3e4c59;margin:4px 0 0}
.standing{display:block;color:#1e3a8a;font-weight:600}
.pair{display:grid;grid-template-columns:1fr 1fr;gap:18px}
.trio{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:18px}
.pair .card,.trio .card{margin:0 0 18px}
.list ul{margin:0;padding-left:20px}
.list li{margin:0 0 8px}
.list-strengths{border-top:4px solid #2f855a}
.list-blindSpots{border-top:4px solid #b45309}
.card.pending{border:2px solid #b45309;background:#fffbeb}
.keep h3{margin-top:18px}
.copy-line{display:flex;gap:8px;align-items:center;flex-wrap:wrap}
.copy-line input{flex:1;min-width:200px;font:inherit;font-size:14px;padding:9px 10px;border:1px solid #7b8794;border-radius:8px;background:#f8fafc;color:#1f2933}
@media (max-width:820px){.trio{grid-template-columns:1fr}}
@media (max-width:700px){.glance,.pair{grid-template-columns:1fr}.hero h1{font-size:24px}.gist{font-size:17px}}
`;

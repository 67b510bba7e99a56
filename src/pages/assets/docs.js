// Rapport's header above /docs: the brand, back to the start page, and the OpenAPI document.
(function () {
  'use strict';
  function addHeader() {
    if (document.querySelector('.rapport-docs-head')) return;
    var head = document.createElement('header');
    head.className = 'rapport-docs-head';
    var brand = document.createElement('a');
    brand.className = 'brand';
    brand.href = '/';
    var logo = document.createElement('img');
    logo.src = '/docs/static/theme/rapport-logo.svg';
    logo.alt = '';
    logo.width = 24;
    logo.height = 24;
    brand.appendChild(logo);
    brand.appendChild(document.createTextNode('Rapport API docs'));
    var nav = document.createElement('nav');
    nav.setAttribute('aria-label', 'Docs');
    [['/', 'Start page'], ['/openapi.json', 'OpenAPI (JSON)']].forEach(function (link) {
      var a = document.createElement('a');
      a.href = link[0];
      a.textContent = link[1];
      nav.appendChild(a);
    });
    head.appendChild(brand);
    head.appendChild(nav);
    document.body.insertBefore(head, document.body.firstChild);
    var main = document.getElementById('swagger-ui');
    if (main) main.setAttribute('role', 'main');
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', addHeader);
  else addHeader();
})();

// Copy buttons (the dashboard's token, button code and hiring links; the result page's private
// link): copies the text, or value, of the element named by data-copy, and says so.
(function () {
  'use strict';
  Array.prototype.forEach.call(document.querySelectorAll('[data-copy]'), function (button) {
    button.hidden = false;
    button.addEventListener('click', function () {
      var source = document.getElementById(button.getAttribute('data-copy'));
      if (!source) return;
      var text = 'value' in source ? source.value : source.textContent;
      var done = function () {
        var status = document.getElementById(button.getAttribute('data-copy') + '-status');
        if (status) status.textContent = 'Copied.';
      };
      var fallback = function () {
        if (source.select) source.select();
        try { document.execCommand('copy'); } catch (e) { /* the text is selected: copy it by hand */ }
        done();
      };
      if (navigator.clipboard && navigator.clipboard.writeText) navigator.clipboard.writeText(text).then(done, fallback);
      else fallback();
    });
  });
})();

// Copy buttons on the dashboard: copies the text of the element named by data-copy.
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
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(text).then(done, function () { if (source.select) source.select(); document.execCommand('copy'); done(); });
      } else {
        if (source.select) source.select();
        document.execCommand('copy');
        done();
      }
    });
  });
})();

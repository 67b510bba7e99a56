// The test is done: answers saved in this browser while taking it are no longer needed.
(function () {
  'use strict';
  try {
    var s = window.localStorage;
    for (var i = s.length - 1; i >= 0; i--) {
      var key = s.key(i);
      if (key && key.indexOf('rapport-test:') === 0) s.removeItem(key);
    }
  } catch (e) { /* storage unavailable: nothing was saved */ }
})();

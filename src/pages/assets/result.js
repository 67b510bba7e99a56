// The test is done: answers saved in this browser while taking it are no longer needed. What
// the test page keeps of a sent test (its attempt id, so that sending it again is recognised)
// stays; it holds no answers.
(function () {
  'use strict';
  try {
    var s = window.localStorage;
    for (var i = s.length - 1; i >= 0; i--) {
      var key = s.key(i);
      if (!key || key.indexOf('rapport-test:') !== 0) continue;
      var state = null;
      try { state = JSON.parse(s.getItem(key) || 'null'); } catch (e) { state = null; }
      if (!state || !state.sent) s.removeItem(key);
    }
  } catch (e) { /* storage unavailable: nothing was saved */ }
})();

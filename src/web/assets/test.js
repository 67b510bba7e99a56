// The personality test, one screen at a time: a progress bar, answers kept in localStorage
// (a reload or a sleeping phone loses nothing), focus moved to each new screen's heading.
// Without this script the page is one plain form and still works.
(function () {
  'use strict';
  var form = document.getElementById('test-form');
  if (!form) return;
  var storageKey = 'rapport-test:' + form.getAttribute('data-storage-key');
  var total = Number(form.getAttribute('data-total')) || 0;
  var screens = Array.prototype.slice.call(form.querySelectorAll('.screen'));
  var bar = form.querySelector('.progress-bar');
  var progress = form.querySelector('[role=progressbar]');
  var progressText = document.getElementById('progress-text');
  var current = 0;

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }
  function load() {
    var s = storage();
    if (!s) return null;
    try { return JSON.parse(s.getItem(storageKey) || 'null'); } catch (e) { return null; }
  }
  function save() {
    var s = storage();
    if (!s) return;
    var state = { answers: {}, fields: {}, screen: current };
    Array.prototype.forEach.call(form.querySelectorAll('input[type=radio]:checked'), function (input) {
      state.answers[input.name] = input.value;
    });
    ['first_name', 'last_name', 'email', 'submission_id'].forEach(function (name) {
      var input = form.elements.namedItem(name);
      if (input && 'value' in input) state.fields[name] = input.value;
    });
    try { s.setItem(storageKey, JSON.stringify(state)); } catch (e) { /* full or private mode: keep going */ }
  }
  function restore() {
    var state = load();
    if (!state) return;
    Object.keys(state.answers || {}).forEach(function (name) {
      var inputs = form.querySelectorAll('input[type=radio]');
      Array.prototype.forEach.call(inputs, function (input) {
        if (input.name === name && input.value === String(state.answers[name]) && !form.querySelector('input[name="' + CSS.escape(name) + '"]:checked')) input.checked = true;
      });
    });
    Object.keys(state.fields || {}).forEach(function (name) {
      var input = form.elements.namedItem(name);
      if (input && 'value' in input && (input.value === '' || name === 'submission_id')) input.value = state.fields[name];
    });
    if (typeof state.screen === 'number' && state.screen >= 0 && state.screen < screens.length) current = state.screen;
  }
  function answered() {
    return form.querySelectorAll('input[type=radio]:checked').length;
  }
  function updateProgress() {
    var n = answered();
    var pct = total ? Math.round((n / total) * 100) : 0;
    bar.style.width = pct + '%';
    progress.setAttribute('aria-valuenow', String(n));
    progressText.textContent = n + ' of ' + total + ' answered';
  }
  function show(index, focus) {
    current = index;
    screens.forEach(function (screen, i) { screen.classList.toggle('current', i === index); });
    var heading = screens[index].querySelector('h2');
    if (focus && heading) heading.focus();
    window.scrollTo(0, 0);
    save();
  }
  function firstMissing(screen) {
    var sets = screen.querySelectorAll('fieldset.item');
    for (var i = 0; i < sets.length; i++) {
      if (!sets[i].querySelector('input:checked')) return sets[i];
    }
    return null;
  }

  form.classList.add('js');
  form.noValidate = true;
  form.querySelector('[data-progress-wrap]').hidden = false;
  screens.forEach(function (screen, i) {
    var back = screen.querySelector('[data-back]');
    var next = screen.querySelector('[data-next]');
    if (back && i > 0) { back.hidden = false; back.addEventListener('click', function () { show(i - 1, true); }); }
    if (next) {
      next.hidden = false;
      next.addEventListener('click', function () {
        var missing = firstMissing(screen);
        if (missing) {
          missing.classList.add('missing');
          var first = missing.querySelector('input');
          if (first) first.focus();
          return;
        }
        show(i + 1, true);
      });
    }
  });
  form.addEventListener('change', function (event) {
    var set = event.target.closest && event.target.closest('fieldset.item');
    if (set) set.classList.remove('missing');
    updateProgress();
    save();
  });
  form.addEventListener('input', save);
  form.addEventListener('submit', function (event) {
    for (var i = 0; i < screens.length; i++) {
      var missing = firstMissing(screens[i]);
      if (missing) {
        event.preventDefault();
        show(i, false);
        missing.classList.add('missing');
        var first = missing.querySelector('input');
        if (first) first.focus();
        return;
      }
    }
    var email = form.elements.namedItem('email');
    if (email && email.type === 'email' && !email.checkValidity()) {
      event.preventDefault();
      email.focus();
      email.reportValidity();
    }
  });
  restore();
  updateProgress();
  show(current, false);
})();

// The personality test, one screen at a time: the first screen asks for the taker's agreement,
// a progress bar counts the answers, a statement left unanswered is said in words (role=alert)
// and focused, answers are kept in localStorage (a reload or a sleeping phone loses nothing),
// and focus moves to each new screen's heading. A test sent from this browser is remembered
// (its attempt id only, never the answers), so Back and send again gives the same result.
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
  var progressWrap = form.querySelector('[data-progress-wrap]');
  var progressText = document.getElementById('progress-text');
  var sentNotice = document.querySelector('[data-sent-notice]');
  var consent = form.elements.namedItem('consent');
  var idField = form.elements.namedItem('submission_id');
  var current = 0;
  // How long a sent test is remembered here: after a day a visit is a new test.
  var SENT_FOR_MS = 24 * 60 * 60 * 1000;

  function storage() {
    try { return window.localStorage; } catch (e) { return null; }
  }
  function load() {
    var s = storage();
    if (!s) return null;
    try { return JSON.parse(s.getItem(storageKey) || 'null'); } catch (e) { return null; }
  }
  function write(state) {
    var s = storage();
    if (!s) return;
    try { s.setItem(storageKey, JSON.stringify(state)); } catch (e) { /* full or private mode: keep going */ }
  }
  function save() {
    var previous = load();
    if (previous && previous.sent) return;
    var state = { answers: {}, fields: {}, screen: current, consent: !!(consent && consent.checked) };
    Array.prototype.forEach.call(form.querySelectorAll('input[type=radio]:checked'), function (input) {
      state.answers[input.name] = input.value;
    });
    ['first_name', 'last_name', 'email', 'submission_id'].forEach(function (name) {
      var input = form.elements.namedItem(name);
      if (input && 'value' in input) state.fields[name] = input.value;
    });
    write(state);
  }
  function restore() {
    var state = load();
    if (!state) return;
    if (state.sent) {
      if (Date.now() - state.sent > SENT_FOR_MS) { var s = storage(); if (s) s.removeItem(storageKey); return; }
      // Sent already: the same attempt id, so sending again is recognised as the same test.
      if (state.fields && state.fields.submission_id) idField.value = state.fields.submission_id;
      if (sentNotice) sentNotice.hidden = false;
      return;
    }
    Object.keys(state.answers || {}).forEach(function (name) {
      Array.prototype.forEach.call(form.querySelectorAll('input[type=radio]'), function (input) {
        if (input.name === name && input.value === String(state.answers[name]) && !form.querySelector('input[name="' + CSS.escape(name) + '"]:checked')) input.checked = true;
      });
    });
    Object.keys(state.fields || {}).forEach(function (name) {
      var input = form.elements.namedItem(name);
      if (input && 'value' in input && (input.value === '' || name === 'submission_id')) input.value = state.fields[name];
    });
    if (state.consent && consent) consent.checked = true;
    if (typeof state.screen === 'number' && state.screen >= 0 && state.screen < screens.length) current = state.screen;
  }
  function updateProgress() {
    var n = form.querySelectorAll('input[type=radio]:checked').length;
    bar.style.width = (total ? Math.round((n / total) * 100) : 0) + '%';
    progress.setAttribute('aria-valuenow', String(n));
    progressText.textContent = n + ' of ' + total + ' answered';
  }
  function show(index, focus) {
    current = index;
    screens.forEach(function (screen, i) { screen.classList.toggle('current', i === index); });
    progressWrap.hidden = screens[index].hasAttribute('data-intro');
    var heading = screens[index].querySelector('h1, h2');
    if (focus && heading) heading.focus();
    window.scrollTo(0, 0);
    save();
  }
  function missingIn(screen) {
    return Array.prototype.filter.call(screen.querySelectorAll('fieldset.item'), function (set) {
      return !set.querySelector('input:checked');
    });
  }
  function clearMissing(set) {
    set.classList.remove('missing');
    var note = set.querySelector('.item-error');
    if (note) note.parentNode.removeChild(note);
    var screen = set.closest('.screen');
    var alert = screen && screen.querySelector('[data-screen-error]');
    if (alert && missingIn(screen).every(function (s) { return !s.classList.contains('missing'); })) alert.hidden = true;
  }
  function reportMissing(screen, sets) {
    sets.forEach(function (set) {
      set.classList.add('missing');
      if (!set.querySelector('.item-error')) {
        var note = document.createElement('p');
        note.className = 'item-error';
        note.id = 'error-' + set.getAttribute('data-item');
        note.textContent = 'Choose an answer for this statement.';
        set.appendChild(note);
        set.setAttribute('aria-describedby', note.id);
      }
    });
    var alert = screen.querySelector('[data-screen-error]');
    if (alert) {
      alert.textContent = (sets.length === 1 ? 'One statement on this page has no answer yet.' : sets.length + ' statements on this page have no answer yet.') + ' Choose an answer for each to go on.';
      alert.hidden = false;
    }
    var first = sets[0].querySelector('input');
    if (first) first.focus();
  }
  function introReady() {
    var error = document.getElementById('consent-error');
    if (consent && !consent.checked) {
      if (error) error.hidden = false;
      consent.focus();
      return false;
    }
    var email = form.elements.namedItem('email');
    if (email && email.type === 'email' && !email.checkValidity()) {
      email.focus();
      email.reportValidity();
      return false;
    }
    return true;
  }
  function randomId() {
    var bytes = new Uint8Array(18);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b < 16 ? '0' : '') + b.toString(16); }).join('');
  }

  form.classList.add('js');
  form.noValidate = true;
  screens.forEach(function (screen, i) {
    var back = screen.querySelector('[data-back]');
    var next = screen.querySelector('[data-next]');
    if (back && i > 0) { back.hidden = false; back.addEventListener('click', function () { show(i - 1, true); }); }
    if (next) {
      next.hidden = false;
      next.addEventListener('click', function () {
        if (screen.hasAttribute('data-intro')) {
          if (introReady()) show(i + 1, true);
          return;
        }
        var missing = missingIn(screen);
        if (missing.length > 0) { reportMissing(screen, missing); return; }
        show(i + 1, true);
      });
    }
  });
  form.addEventListener('change', function (event) {
    var set = event.target.closest && event.target.closest('fieldset.item');
    if (set) clearMissing(set);
    if (event.target === consent && consent.checked) {
      var error = document.getElementById('consent-error');
      if (error) error.hidden = true;
    }
    updateProgress();
    save();
  });
  form.addEventListener('input', save);
  form.addEventListener('submit', function (event) {
    if (!introReady()) {
      event.preventDefault();
      show(0, false);
      introReady();
      return;
    }
    for (var i = 0; i < screens.length; i++) {
      var missing = missingIn(screens[i]);
      if (missing.length > 0) {
        event.preventDefault();
        show(i, false);
        reportMissing(screens[i], missing);
        return;
      }
    }
    // Only the attempt id is kept: Back and send again is then the same test, not a second one.
    write({ sent: Date.now(), fields: { submission_id: idField.value } });
  });
  var startOver = document.querySelector('[data-start-over]');
  if (startOver) {
    startOver.addEventListener('click', function () {
      var s = storage();
      if (s) s.removeItem(storageKey);
      form.reset();
      idField.value = randomId();
      sentNotice.hidden = true;
      updateProgress();
      show(0, true);
    });
  }
  // Back to this page after sending it: the browser puts the answers back by itself, after this
  // script ran, so the count is taken again.
  window.addEventListener('pageshow', updateProgress);
  window.addEventListener('load', updateProgress);
  restore();
  updateProgress();
  show(current, false);
})();

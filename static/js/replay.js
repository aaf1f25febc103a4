// A finished game's replay (templates/games/replay.html): one step shown at a time, stepped through with the
// first, previous, next and last links, the slider and the arrow keys; a step of another round opens that round's
// page. Without JavaScript the page shows its round's steps one under another and the links lead to rounds.
(function () {
  "use strict";
  var nav = document.getElementById("replay-nav");
  if (!nav) return;
  var last = parseInt(nav.getAttribute("data-last"), 10);
  var steps = {};
  document.querySelectorAll(".replay-step").forEach(function (section) {
    steps[parseInt(section.getAttribute("data-step"), 10)] = section;
  });
  var slider = document.getElementById("replay-slider");
  var at = document.getElementById("replay-at");
  var current = null;

  function asked() {
    var match = /^#step-([0-9]+)$/.exec(window.location.hash);
    if (match) return parseInt(match[1], 10);
    var query = /[?&]step=([0-9]+)/.exec(window.location.search);
    return query ? parseInt(query[1], 10) : parseInt(nav.getAttribute("data-current"), 10);
  }

  function show(number) {
    number = Math.max(0, Math.min(last, number));
    if (!steps[number]) {  // another round's step: its page, opened at that step
      window.location.assign("?step=" + number + "#step-" + number);
      return;
    }
    Object.keys(steps).forEach(function (key) { steps[key].hidden = parseInt(key, 10) !== number; });
    current = number;
    slider.value = String(number);
    at.textContent = at.getAttribute("data-words").replace("STEP", String(number));
    if (window.location.hash !== "#step-" + number) {
      history.replaceState(null, "", "#step-" + number);
    }
  }

  var moves = {
    first: function () { return 0; },
    previous: function () { return current - 1; },
    next: function () { return current + 1; },
    last: function () { return last; },
  };
  nav.querySelectorAll("[data-go]").forEach(function (control) {
    var go = control.getAttribute("data-go");
    if (!moves[go]) { control.hidden = true; return; }  // the slider's Go button: the slider moves at once
    control.addEventListener("click", function (event) {
      event.preventDefault();
      show(moves[go]());
    });
  });
  slider.addEventListener("input", function () {
    at.textContent = at.getAttribute("data-words").replace("STEP", slider.value);
  });
  slider.addEventListener("change", function () { show(parseInt(slider.value, 10)); });
  nav.querySelector("form").addEventListener("submit", function (event) {
    event.preventDefault();
    show(parseInt(slider.value, 10));
  });
  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    if (target === slider) return;  // the slider moves itself
    if (target.closest && target.closest("input, textarea, select, [contenteditable]")) return;
    var keys = { ArrowLeft: "previous", ArrowRight: "next", Home: "first", End: "last" };
    if (!keys[event.key]) return;
    event.preventDefault();
    show(moves[keys[event.key]]());
  });
  window.addEventListener("hashchange", function () {  // a link to a step; other anchors ("Skip to content") stay
    if (/^#step-[0-9]+$/.test(window.location.hash)) show(asked());
  });
  show(asked());
})();

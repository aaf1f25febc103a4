// Progressive enhancement only: every page works without JavaScript.
// Countdowns: <time data-countdown datetime="ISO"> shows the time left, refreshed every minute, in the page's
// language (the browser's Intl names the units: "2 jours et 3 heures", "2 dni i 3 godziny").
(function () {
  var lang = document.documentElement.lang || "en";
  function unit(value, name) {
    return new Intl.NumberFormat(lang, { style: "unit", unit: name, unitDisplay: "long" }).format(value);
  }
  function left(target) {
    var ms = Date.parse(target) - Date.now();
    if (isNaN(ms) || typeof Intl === "undefined" || !Intl.ListFormat) return null;
    var minutes = Math.max(0, Math.floor(ms / 60000));
    var days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60);
    // Two units at most, as the server writes it: days and hours, or hours and minutes, or minutes.
    var parts = days ? [unit(days, "day"), unit(hours, "hour")]
      : hours ? [unit(hours, "hour"), unit(minutes % 60, "minute")]
      : [unit(minutes, "minute")];
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(parts);
  }
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var out = document.getElementById(el.getAttribute("data-countdown"));
      var text = left(el.getAttribute("datetime"));
      if (out && text !== null) out.textContent = text;
    });
  }
  tick();
  setInterval(tick, 60000);
})();

// The browser's time zone, for the profile a new account is given (read when the account is made).
(function () {
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  } catch (e) { /* no Intl: the profile keeps UTC */ }
})();

// Irreversible moves ask first (T2: the game moves on at once, with no undo). The question is the server's,
// translated, on the clicked button or the chosen option; once answered yes the form says so, and the server
// does not ask again. Without JavaScript the server asks on a page of its own.
document.addEventListener("submit", function (event) {
  var form = event.target, button = event.submitter;
  var confirmed = form.querySelector("input[name=confirmed]");
  if (!confirmed) return;
  var select = form.querySelector("select");
  var source = button && button.hasAttribute("data-confirm") ? button
    : select && select.selectedOptions.length ? select.selectedOptions[0] : null;
  var question = source && source.getAttribute("data-confirm");
  if (!question) return;
  if (window.confirm(question)) confirmed.value = "yes";
  else event.preventDefault();
});

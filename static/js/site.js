// Progressive enhancement only: every page works without JavaScript.
// Countdowns: <time data-countdown datetime="ISO"> shows the time left, refreshed every minute.
(function () {
  function left(target) {
    var ms = Date.parse(target) - Date.now();
    if (isNaN(ms)) return null;
    if (ms <= 0) return "0m";
    var minutes = Math.floor(ms / 60000), days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60);
    return (days ? days + "d " : "") + (days || hours ? hours + "h " : "") + (minutes % 60) + "m";
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

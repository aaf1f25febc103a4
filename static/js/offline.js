// The offline page: the pages the service worker kept (static/js/sw.js), newest first, each with when it was kept.
(function () {
  "use strict";
  var list = document.getElementById("kept-pages");
  if (!list || !("caches" in window)) return;
  var lang = document.documentElement.lang || "en";
  caches.open("pages-v1").then(function (cache) {
    return cache.keys().then(function (keys) {
      return Promise.all(keys.map(function (key) { return cache.match(key).then(function (r) { return [key, r]; }); }));
    });
  }).then(function (pages) {
    pages.reverse();
    if (!pages.length) {
      var none = document.createElement("li");
      none.textContent = list.getAttribute("data-empty");
      list.appendChild(none);
    }
    pages.forEach(function (page) {
      var item = document.createElement("li"), link = document.createElement("a"), at = document.createElement("span");
      link.href = new URL(page[0].url).pathname + new URL(page[0].url).search;
      link.textContent = decodeURIComponent(page[1].headers.get("X-Kept-Title") || link.href);
      var moment = new Date(Number(page[1].headers.get("X-Kept-At")));
      at.className = "muted";
      at.textContent = " " + moment.toLocaleString(lang, { dateStyle: "medium", timeStyle: "short" });
      item.appendChild(link);
      item.appendChild(at);
      list.appendChild(item);
    });
  });
})();

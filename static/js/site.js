// Progressive enhancement only: every page works without JavaScript.
(function () {
  "use strict";
  var lang = document.documentElement.lang || "en";

  // Countdowns: <time data-countdown="OUT" datetime="ISO"> shows the time left in #OUT, refreshed every minute,
  // in the page's language (the browser's Intl names the units: "2 jours et 3 heures", "2 dni i 3 godziny").
  // When one reaches zero the page is told ("sh:deadline"), so that a live page asks for the outcome at once.
  function unit(value, name) {
    return new Intl.NumberFormat(lang, { style: "unit", unit: name, unitDisplay: "long" }).format(value);
  }
  function left(ms) {
    if (isNaN(ms) || typeof Intl === "undefined" || !Intl.ListFormat) return null;
    var minutes = Math.max(0, Math.floor(ms / 60000));
    var days = Math.floor(minutes / 1440), hours = Math.floor((minutes % 1440) / 60);
    // Two units at most, as the server writes it: days and hours, or hours and minutes, or minutes.
    var parts = days ? [unit(days, "day"), unit(hours, "hour")]
      : hours ? [unit(hours, "hour"), unit(minutes % 60, "minute")]
      : [unit(minutes, "minute")];
    return new Intl.ListFormat(lang, { style: "long", type: "conjunction" }).format(parts);
  }
  var passed = {};  // the deadlines already announced as passed, by their moment: each is announced once
  function tick() {
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var out = document.getElementById(el.getAttribute("data-countdown"));
      var moment = el.getAttribute("datetime"), ms = Date.parse(moment) - Date.now();
      var text = left(ms);
      if (out && text !== null) out.textContent = text;
      if (ms <= 0 && !passed[moment]) {
        passed[moment] = true;
        document.dispatchEvent(new CustomEvent("sh:deadline"));
      }
    });
  }

  // The service worker (static/js/sw.js): the site installable, readable offline, and reached by push.
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("/sw.js").catch(function () { /* the pages work without it */ });
  }

  // The browser's time zone, for the profile a new account is given and the pages of those who have none.
  try {
    var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    if (zone) document.cookie = "tz=" + zone + "; path=/; max-age=31536000; samesite=lax";
  } catch (e) { /* no Intl: UTC */ }

  // Irreversible moves ask first (T2: the game moves on at once, with no undo). The question is the server's,
  // translated, on the clicked button or the chosen option; once answered yes the form says so, and the server
  // does not ask again. Without JavaScript the server asks on a page of its own.
  document.addEventListener("submit", function (event) {
    var form = event.target, button = event.submitter;
    var confirmed = form.querySelector("input[name=confirmed]");
    if (!confirmed) return;
    confirmed.value = "";  // a page restored from the history may hold an earlier "yes": ask again
    var select = form.querySelector("select");
    var source = button && button.hasAttribute("data-confirm") ? button
      : select && select.selectedOptions.length ? select.selectedOptions[0] : null;
    var question = source && source.getAttribute("data-confirm");
    if (form.hasAttribute("data-sent")) return event.preventDefault();  // a double click: one question, one move
    if (!question) return form.setAttribute("data-sent", "");  // the server asks on a page of its own
    if (!window.confirm(question)) return event.preventDefault();
    form.setAttribute("data-sent", "");
    confirmed.value = "yes";
    // One click, one move: the form's buttons wait for the answer (disabled after the form data is taken).
    setTimeout(function () { form.querySelectorAll("button").forEach(function (b) { b.disabled = true; }); }, 0);
  });

  // A page shown again from the browser's history takes moves again: its forms were sent from another visit.
  window.addEventListener("pageshow", function (event) {
    if (!event.persisted) return;
    document.querySelectorAll("form[data-sent]").forEach(function (form) {
      form.removeAttribute("data-sent");
      form.querySelectorAll("button").forEach(function (b) { b.disabled = false; });
    });
  });

  boardChoice();

  // A live thread: the page asks every 20 s (setting LIVE_POLL_SECONDS) (every 5 s for two minutes after a deadline passes, and at once when
  // it is shown again) whether anything changed, sending its ETag; a 304 costs the server one query. On news,
  // each [data-live] part that changed is swapped in, unless the reader is busy in it (focus there, or a field
  // changed): that part, and the ETag, wait for the next answer. Open <details> stay open.
  // A copy of the page kept for offline reading (static/js/sw.js marks it) is read as it is: it asks for no news
  // and moves no read mark, which would post what it held when it was kept.
  var kept = document.documentElement.hasAttribute("data-offline");
  if (!kept) {
    startLive();
    markRead();
  }
  newPosts();
  reportForm();
  copyButtons();
  durationUnits();
  tick();  // after the live page listens: a deadline already passed makes it ask at once
  setInterval(tick, 15000);

  // The reader's read mark moves once the page is shown, by a POST of its own: reading a page writes nothing.
  function markRead() {
    var form = document.getElementById("read-mark");
    if (!form || !window.fetch || !window.FormData) return;
    function send() {
      if (document.hidden) return;
      document.removeEventListener("visibilitychange", send);
      fetch(form.action, { method: "POST", body: new FormData(form), credentials: "same-origin" }).catch(function () {});
    }
    document.addEventListener("visibilitychange", send);
    send();
  }

  function startLive() {
    var live = document.getElementById("live");
    if (!live || !live.getAttribute("data-etag") || !window.fetch || !window.DOMParser) return;
    var etag = live.getAttribute("data-etag");
    var every = 1000 * Number(live.getAttribute("data-every") || 20);
    var fast = 0, timer = null, asking = false;

    function schedule(delay) {
      clearTimeout(timer);
      timer = setTimeout(ask, delay !== undefined ? delay : fast > 0 && !document.hidden ? Math.min(5000, every) : every);
    }
    function ask() {
      if (asking) return schedule();
      asking = true;
      fetch(location.pathname + location.search, {
        headers: { "X-Live": "1", "If-None-Match": etag, "X-Read-Before": live.getAttribute("data-read") || "" },
        cache: "no-store", credentials: "same-origin"
      }).then(function (response) {
        if (response.status !== 200) return;
        var tag = response.headers.get("ETag");
        return response.text().then(function (html) { apply(html, tag); });
      }).catch(function () { /* offline for a moment: ask again later */ }).then(function () {
        asking = false;
        if (fast > 0) fast--;
        schedule();
      });
    }
    function comparable(el) {
      var copy = el.cloneNode(true);
      copy.querySelectorAll("input[name=csrfmiddlewaretoken]").forEach(function (i) { i.removeAttribute("value"); });
      copy.querySelectorAll("[data-countdown]").forEach(function (t) {
        var out = copy.querySelector("#" + t.getAttribute("data-countdown"));
        if (out) out.textContent = "";
      });
      copy.querySelectorAll("details").forEach(function (d) { d.removeAttribute("open"); });
      copy.querySelectorAll("#report-form").forEach(function (f) { f.remove(); });  // the reader's, moved in
      return copy.innerHTML;
    }
    function busy(el) {
      // Busy: typing or choosing in a field of it (focus on a link, a button or a summary is not), or a field
      // changed from what the page gave.
      var active = document.activeElement;
      if (active && el.contains(active) && /^(INPUT|TEXTAREA|SELECT)$/.test(active.tagName)) return true;
      return Array.prototype.some.call(el.querySelectorAll("input, textarea, select"), function (field) {
        if (field.tagName === "SELECT") {
          var initial = 0;  // the option the page selected, or the first
          for (var i = 0; i < field.options.length; i++) if (field.options[i].defaultSelected) { initial = i; break; }
          return field.selectedIndex !== initial;
        }
        if (field.type === "hidden") return false;
        if (field.type === "checkbox" || field.type === "radio") return field.checked !== field.defaultChecked;
        return field.value !== field.defaultValue;
      });
    }
    function apply(html, tag) {
      var fresh = new DOMParser().parseFromString(html, "text/html");
      var waiting = false, changed = false;
      fresh.querySelectorAll("[data-live]").forEach(function (part) {
        var old = document.getElementById(part.id);
        if (!old || comparable(old) === comparable(part)) return;
        if (busy(old)) { waiting = true; return; }
        old.querySelectorAll("details[open][id]").forEach(function (d) {
          var twin = part.querySelector("#" + d.id);
          if (twin) twin.setAttribute("open", "");
        });
        old.replaceWith(document.adoptNode(part));
        changed = true;
      });
      if (!waiting && tag) etag = tag;
      if (changed) {
        tick();
        document.dispatchEvent(new CustomEvent("sh:news"));
        var news = document.getElementById("live-news");
        if (news) news.textContent = live.getAttribute("data-updated");
      }
    }
    document.addEventListener("visibilitychange", function () { if (!document.hidden) schedule(0); });
    document.addEventListener("sh:deadline", function () { fast = 24; schedule(1000); });
    schedule();
  }

  // Choosing a target on the board. The panel's select starts on "Choose a player" (required: the browser
  // says so in the page's words, data-required, and the server refuses it too). Each seat it offers becomes a
  // button on the board, "Choose <name>" (the option's data-choose), by mouse or keyboard, mirrored in the select;
  // other seats stay a drawing. Without JavaScript the select alone works.
  function boardChoice() {
    var pending = false;
    function targetSelect() { return document.querySelector("#panel select[name=target]"); }
    function refresh() {
      pending = false;
      var select = targetSelect(), offered = {}, any = false;
      if (select) Array.prototype.forEach.call(select.options, function (o) { if (o.value) offered[o.value] = o; });
      document.querySelectorAll("svg.table-svg g.seat[data-name]").forEach(function (seat) {
        // The button is the seat's disc, which holds no text: its name is its label alone, "Choose <name>".
        var option = offered[seat.getAttribute("data-name")], disc = seat.querySelector(".disc");
        seat.classList.toggle("choosable", !!option);
        if (!disc) return;
        if (!option) {
          ["role", "tabindex", "aria-label", "aria-pressed"].forEach(function (a) { disc.removeAttribute(a); });
          return;
        }
        any = true;
        disc.setAttribute("role", "button");
        disc.setAttribute("tabindex", "0");
        disc.setAttribute("aria-label", option.getAttribute("data-choose") || option.value);
        disc.setAttribute("aria-pressed", option.selected ? "true" : "false");
      });
      // An image's parts are not reachable by assistive technology: a board with buttons is a group.
      document.querySelectorAll("svg.table-svg").forEach(function (svg) { svg.setAttribute("role", any ? "group" : "img"); });
    }
    function choose(seat) {
      var select = targetSelect();
      if (!select) return;
      select.value = seat.getAttribute("data-name");
      select.setCustomValidity("");
      select.dispatchEvent(new Event("change", { bubbles: true }));
      // On a phone the panel sits above the board, off the screen: the choice and its Confirm are brought into
      // view together, as little as it takes (nothing moves when they are in view already).
      if (select.form) select.form.scrollIntoView({ block: "nearest" });
    }
    document.addEventListener("click", function (event) {
      var seat = event.target.closest && event.target.closest("g.seat.choosable");
      if (seat) choose(seat);
    });
    document.addEventListener("keydown", function (event) {
      var seat = event.target.closest && event.target.closest("g.seat.choosable");
      if ((event.key === "Enter" || event.key === " ") && seat) {
        event.preventDefault();
        choose(seat);
      }
    });
    document.addEventListener("change", function (event) {
      if (event.target.name === "target") { event.target.setCustomValidity(""); refresh(); }
    });
    document.addEventListener("invalid", function (event) {
      var field = event.target;
      if (field.getAttribute("data-required") && !field.value) field.setCustomValidity(field.getAttribute("data-required"));
    }, true);
    // The live thread swaps the panel and the board in: the seats are made buttons again, once per change.
    new MutationObserver(function () {
      if (!pending) { pending = true; setTimeout(refresh, 0); }
    }).observe(document.body, { childList: true, subtree: true });
    refresh();
  }

  // What is new on a live page: the tab's title counts the posts that came since the reader last looked,
  // "(3) Game name": one counts as seen once it has been on screen in a shown tab; those that went to a later
  // page of the thread, once the reader has been at the end of this one. The "New posts" line is the server's.
  function newPosts() {
    var entries = document.getElementById("entries");
    if (!entries || !document.getElementById("live")) return;
    var title = document.title, seen = {}, shown = {}, offPage = 0;
    var total = Number(entries.getAttribute("data-posts") || 0);
    document.querySelectorAll("#entries article.post").forEach(function (post) { seen[post.id] = shown[post.id] = true; });
    function onScreen(el) {
      var box = el.getBoundingClientRect();
      return box.bottom > 0 && box.top < window.innerHeight && box.height > 0;
    }
    function look() {
      var unseen = 0;
      document.querySelectorAll("#entries article.post").forEach(function (post) {
        if (seen[post.id]) return;
        if (!document.hidden && onScreen(post)) seen[post.id] = true;
        else if (!post.hasAttribute("data-own")) unseen++;
      });
      var end = document.getElementById("end");
      if (!document.hidden && end && onScreen(end)) offPage = 0;
      document.title = unseen + offPage > 0 ? "(" + (unseen + offPage) + ") " + title : title;
    }
    document.addEventListener("sh:news", function () {
      var now = document.getElementById("entries"), arrived = 0;
      var count = Number(now.getAttribute("data-posts") || total);
      now.querySelectorAll("article.post").forEach(function (post) {
        if (!shown[post.id]) arrived++;
        shown[post.id] = true;
      });
      offPage += Math.max(0, count - total - arrived);  // posts that went to a page after this one
      total = count;
      look();
    });
    var pending = false;
    window.addEventListener("scroll", function () {
      if (pending) return;
      pending = true;
      requestAnimationFrame(function () { pending = false; look(); });
    }, { passive: true });
    document.addEventListener("visibilitychange", look);
    window.addEventListener("focus", look);
  }

  // Reporting a post: the page's one form (#report-form, hidden) is moved under the post whose "Report" was
  // clicked and sent to that link's address; the same click again puts it away. Without JavaScript the link leads
  // to a page with the post and the form. When the live page swaps the posts in, the form follows its post.
  function reportForm() {
    var form = document.getElementById("report-form");
    if (!form) return;
    var home = form.parentNode, reason = form.querySelector("input[name=reason]");
    function putAway() {
      form.hidden = true;
      form.removeAttribute("action");
      home.appendChild(form);
    }
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[data-report]");
      if (!link) return;
      event.preventDefault();
      if (!form.hidden && form.getAttribute("action") === link.getAttribute("href")) return putAway();
      form.setAttribute("action", link.getAttribute("href"));
      link.closest("article").appendChild(form);
      form.hidden = false;
      reason.focus();
    });
    document.addEventListener("sh:news", function () {
      if (form.hidden || document.body.contains(form)) return;
      var link = document.querySelector("a[data-report][href='" + form.getAttribute("action") + "']");
      if (link) link.closest("article").appendChild(form);
      else putAway();
    });
  }

  // The game form's fast table: its durations are named in minutes as soon as it is ticked, in hours as soon as it
  // is not (each duration field carries both names); the server names them so too, as sent.
  function durationUnits() {
    var box = document.getElementById("id_minute_durations");
    if (!box) return;
    box.addEventListener("change", function () {
      document.querySelectorAll("input[data-minutes]").forEach(function (input) {
        var label = document.querySelector("label[for='" + input.id + "']");
        var name = input.getAttribute(box.checked ? "data-minutes" : "data-hours");
        if (label) label.textContent = name.charAt(0).toUpperCase() + name.slice(1);
      });
    });
  }

  // Copying a token: <button data-copy="FIELD" data-copied="TEXT" hidden> copies the field's value to the
  // clipboard and says TEXT. Shown only where it can work; without it the read-only field is still selectable.
  function copyButtons() {
    document.querySelectorAll("button[data-copy]").forEach(function (button) {
      var field = document.getElementById(button.getAttribute("data-copy"));
      if (!field || !navigator.clipboard || !window.isSecureContext) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        navigator.clipboard.writeText(field.value).then(function () {
          button.textContent = button.getAttribute("data-copied");
        }, function () {
          field.select();  // refused: the value is selected for the reader to copy
        });
      });
      field.addEventListener("focus", function () { field.select(); });
    });
  }
})();

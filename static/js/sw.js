// The site's service worker, served at /sw.js so that its scope is the whole site. Two jobs:
// - Offline: the pages the reader opens are kept (the last KEEP of them, not the account's or the API's). Without a
//   network, a kept page is shown read-only (its forms inert: a move sent from a stale page must never post) under
//   the page's offline banner; any other page gives the offline page, which lists the kept ones.
// - Push: a push shows a notification that replaces the one of its tag. A "your move" first asks the site
//   (/push/holds/) whether the move is still owed: one already made shows nothing. A click opens its page.
"use strict";
var SHELL = "shell-v1";
var PAGES = "pages-v1";  // static/js/offline.js reads it too
var KEEP = 10;
var NOT_KEPT = /^\/(accounts|admin|api|moderation|profile|push|inbound|calendar|unsubscribe|offline)(\/|$)|^\/(sw\.js|manifest\.webmanifest|metrics|healthz)$/;

self.addEventListener("install", function (event) {
  // The offline page, and what it loads (its styles and scripts, read off the page itself).
  event.waitUntil(caches.open(SHELL).then(function (cache) {
    return fetch("/offline/", { credentials: "same-origin" }).then(function (response) {
      return response.clone().text().then(function (html) {
        var assets = [];
        html.replace(/(?:href|src)="(\/static\/[^"]+)"/g, function (_match, url) { assets.push(url); });
        return cache.put("/offline/", response).then(function () { return cache.addAll(assets); });
      });
    });
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return name !== SHELL && name !== PAGES; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (request.mode === "navigate") {
    event.respondWith(navigate(request, url));
  } else if (url.pathname.indexOf("/static/") === 0) {
    event.respondWith(fetch(request).catch(function () {
      return caches.match(request).then(function (kept) { return kept || Response.error(); });
    }));
  }
});

function navigate(request, url) {
  return fetch(request).then(function (response) {
    var html = (response.headers.get("Content-Type") || "").indexOf("text/html") === 0;
    var stored = (response.headers.get("Cache-Control") || "").indexOf("no-store") === -1;
    if (response.status === 200 && html && stored && !NOT_KEPT.test(url.pathname)) keep(url, response.clone());
    if (response.status === 200 && html) offlineIn(response.headers.get("Content-Language"));
    return response;
  }).catch(function () {
    return caches.open(PAGES).then(function (cache) { return cache.match(url.pathname + url.search); })
      .then(function (kept) { return kept ? readOnly(kept) : caches.match("/offline/"); })
      .then(function (answer) { return answer || Response.error(); });
  });
}

function offlineIn(language) {
  // The offline page in the language the site now speaks to this reader (they may have chosen another).
  if (!language) return;
  caches.open(SHELL).then(function (cache) {
    return cache.match("/offline/").then(function (kept) {
      if (kept && kept.headers.get("Content-Language") === language) return;
      return fetch("/offline/", { credentials: "same-origin" }).then(function (fresh) {
        if (fresh.ok) return cache.put("/offline/", fresh);
      });
    });
  }).catch(function () { /* kept as it was */ });
}

function keep(url, response) {
  // Kept with its title and the moment, for the offline page's list; the newest last, the oldest dropped.
  var key = url.pathname + url.search;
  return response.text().then(function (html) {
    var title = (/<title>([^<]*)<\/title>/.exec(html) || [])[1] || key;
    var copy = new Response(html, { headers: {
      "Content-Type": "text/html; charset=utf-8", "X-Kept-Title": encodeURIComponent(title.trim()),
      "X-Kept-At": String(Date.now()) } });
    return caches.open(PAGES).then(function (cache) {
      return cache.delete(key).then(function () { return cache.put(key, copy); })
        .then(function () { return cache.keys(); })
        .then(function (keys) {
          return Promise.all(keys.slice(0, Math.max(0, keys.length - KEEP)).map(function (old) { return cache.delete(old); }));
        });
    });
  });
}

function readOnly(kept) {
  // A kept page as it may be read offline: every form inert and unable to post, the page marked (site.js then
  // neither asks for news nor moves the read mark), its banner shown.
  return kept.text().then(function (html) {
    html = html.replace(/<html\b/, "<html data-offline").replace(/<form\b/g, "<form inert data-offline")
      .replace(/method="post"/gi, 'method="dialog"')
      .replace('id="offline-banner" hidden', 'id="offline-banner"');
    return new Response(html, { headers: { "Content-Type": "text/html; charset=utf-8" } });
  });
}

self.addEventListener("push", function (event) {
  var message;
  try {
    message = event.data ? event.data.json() : null;
  } catch (error) {
    message = null;
  }
  if (!message || !message.title) return;
  event.waitUntil(stillHolds(message).then(function (holds) {
    if (!holds) return close(message.tag);
    return self.registration.showNotification(message.title, {
      body: message.body, tag: message.tag, renotify: true, data: { url: message.url },
      icon: "/static/icons/icon-192.png", badge: "/static/icons/icon-192.png"
    });
  }));
});

function stillHolds(message) {
  // Only a "your move" carries a token saying which moves it is about (signed by the site: no session needed); the
  // site out of reach or in trouble, the push is shown as it came.
  if (!message.holds) return Promise.resolve(true);
  return fetch("/push/holds/?token=" + encodeURIComponent(message.holds), { credentials: "omit", cache: "no-store" })
    .then(function (response) {
      return response.ok ? response.json().then(function (answer) { return answer.holds === true; }) : true;
    }, function () { return true; });
}

function close(tag) {
  return self.registration.getNotifications({ tag: tag }).then(function (shown) {
    shown.forEach(function (notification) { notification.close(); });
  });
}

self.addEventListener("notificationclick", function (event) {
  // The page the notification is about, in a window of the site already open if there is one, else a new one.
  event.notification.close();
  var target = new URL((event.notification.data && event.notification.data.url) || "/", self.location.origin);
  if (target.origin !== self.location.origin) return;
  var opened = self.clients.matchAll({ type: "window" }).then(function (windows) {
    var same = windows.filter(function (w) { return new URL(w.url).pathname === target.pathname; });
    var window = same[0] || windows[0];
    if (!window) return self.clients.openWindow(target.href);
    return window.navigate(target.href).then(function (client) {
      return (client || window).focus().catch(function () { return client; });
    });
  });
  event.waitUntil(opened);
});

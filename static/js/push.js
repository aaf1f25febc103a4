// Notifications on this device (templates/games/devices.html): the browser subscribes to the site's push key and
// the subscription is sent to the site, which lists it among the reader's devices.
(function () {
  "use strict";
  var section = document.getElementById("this-device");
  if (!section) return;
  var button = document.getElementById("push-subscribe");
  var status = document.getElementById("push-status");
  function say(text) { status.textContent = text; }
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    return say(status.getAttribute("data-unsupported"));
  }

  function bytes(text) {  // base64url to the bytes PushManager takes
    var plain = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    return Uint8Array.from(atob(plain), function (c) { return c.charCodeAt(0); });
  }
  function keyOf(subscription) {  // the key a subscription was made with, as base64url
    var key = subscription.options && subscription.options.applicationServerKey;
    if (!key) return "";
    return btoa(String.fromCharCode.apply(null, new Uint8Array(key))).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }
  function csrf() {
    var field = document.querySelector("input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }
  function digest(text) {  // what the page shows of an endpoint, a credential: its SHA-256, in hexadecimal
    return crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)).then(function (hash) {
      return Array.from(new Uint8Array(hash), function (b) { return ("0" + b.toString(16)).slice(-2); }).join("");
    });
  }
  function mark(subscription) {  // this device in the list, if it is there: whether it is
    if (!subscription) return Promise.resolve(false);
    return digest(subscription.endpoint).then(function (mine) {
      var found = false;
      document.querySelectorAll("li[data-endpoint]").forEach(function (row) {
        if (row.getAttribute("data-endpoint") === mine) {
          row.querySelector(".this-device").hidden = false;
          found = true;
        }
      });
      if (found) say(status.getAttribute("data-subscribed"));
      return found;
    });
  }
  function failed(reason) { say(status.getAttribute("data-failed") + " " + reason); }

  function send(subscription) {
    return fetch(section.getAttribute("data-url"), {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() },
      body: JSON.stringify(subscription)
    }).then(function (response) {
      if (response.status === 201) return window.location.reload();
      return response.json().then(function (answer) { failed(answer.error); });
    });
  }
  function subscribe(registration) {
    var key = section.getAttribute("data-key");
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") return say(status.getAttribute("data-denied"));
      return registration.pushManager.getSubscription().then(function (old) {
        if (old && keyOf(old) !== key) return old.unsubscribe().then(function () { return null; });
        return old;
      }).then(function (kept) {
        return kept || registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: bytes(key) });
      }).then(send);
    }).catch(function (error) { failed(error.message || String(error)); });
  }

  if (Notification.permission === "denied") say(status.getAttribute("data-denied"));
  navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; })
    .then(function (registration) {
      return registration.pushManager.getSubscription().then(function (subscription) {
        return mark(subscription).then(function (listed) {
          // Subscribed here already, with the site's present key: nothing to offer. Else the button (again).
          button.hidden = listed && keyOf(subscription) === section.getAttribute("data-key");
          button.addEventListener("click", function () { subscribe(registration); });
        });
      });
    }).catch(function (error) { failed(error.message || String(error)); });
})();

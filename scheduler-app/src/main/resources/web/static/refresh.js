// Auto-refresh, off until asked for: the pages work without it (and without JavaScript at all).
(function () {
  var KEY = "leasecron.autoRefresh";
  var EVERY_MS = 5000;
  var button = document.getElementById("auto-refresh");
  if (!button) {
    return;
  }
  var timer = null;
  function on() {
    try { return window.localStorage.getItem(KEY) === "on"; } catch (e) { return false; }
  }
  function show() {
    button.textContent = "Auto-refresh: " + (on() ? "on" : "off");
    button.setAttribute("aria-pressed", on() ? "true" : "false");
    if (timer !== null) {
      clearTimeout(timer);
      timer = null;
    }
    if (on()) {
      timer = setTimeout(function () { window.location.reload(); }, EVERY_MS);
    }
  }
  button.hidden = false;
  button.addEventListener("click", function () {
    try { window.localStorage.setItem(KEY, on() ? "off" : "on"); } catch (e) { /* private mode: stays off */ }
    show();
  });
  show();
})();

// The dashboard's one script (the Content-Security-Policy allows no inline script). The pages work
// without it for reading; it adds an auto-refresh toggle and, on a job's page when the daemon has an
// admin token, the Run now / Suspend… / Resume buttons.

// Auto-refresh, off until asked for.
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

// The admin API's buttons. The token is typed in by the operator and sent in the Authorization header
// of a fetch: no cookie carries it, so a form or script of another site cannot act in the operator's
// name (the browser attaches nothing to its requests, and the same-origin policy keeps this page's
// storage from it). It is kept in sessionStorage, for this tab only, if the operator ticks the box.
(function () {
  var TOKEN_KEY = "leasecron.adminToken";
  var RESULT_KEY = "leasecron.lastAction";
  var POLLS = 15;
  var POLL_MS = 2000;
  var section = document.getElementById("actions");
  if (!section) {
    return;
  }
  var api = section.getAttribute("data-api");
  var job = section.getAttribute("data-job");
  var field = document.getElementById("admin-token");
  var keep = document.getElementById("admin-token-keep");
  var result = document.getElementById("action-result");

  function storage() {
    try { return window.sessionStorage; } catch (e) { return null; }
  }
  function remember() {
    var s = storage();
    if (!s) { return; }
    if (keep.checked && field.value) {
      s.setItem(TOKEN_KEY, field.value);
    } else {
      s.removeItem(TOKEN_KEY);
    }
  }
  function show(text, failed) {
    result.textContent = text;
    result.className = failed ? "result failed" : "result";
  }
  function describeRun(run) {
    return "Run request " + run.id + ": " + run.state + (run.outcome ? " (" + run.outcome + ")" : "")
        + (run.instance ? " on " + run.instance : "");
  }
  function describe(action, status, body) {
    if (status === 202) {
      return describeRun(body);
    }
    if (status === 200 && action === "suspend") {
      return body.changed ? "Suspended " + job + "." : job + " was already suspended.";
    }
    if (status === 200 && action === "resume") {
      return body.changed ? "Resumed " + job + "." : job + " was not suspended.";
    }
    return "Refused (" + status + "): " + (body.detail || body.error || "no answer");
  }
  // A run request's state after the reload, until its round ends or the polls run out.
  function follow(id, left) {
    if (left <= 0) { return; }
    fetch("/api/v1/runs/" + encodeURIComponent(id), { credentials: "omit", cache: "no-store" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (run) {
        if (!run) { return; }
        show(describeRun(run), false);
        if (run.state !== "ended") {
          setTimeout(function () { follow(id, left - 1); }, POLL_MS);
        }
      })
      .catch(function () { /* the line keeps the last state known */ });
  }
  // The token typed in, or null (and a word to the operator) when there is none yet.
  function token() {
    var value = field.value.trim();
    if (!value) {
      show("Enter the admin token first.", true);
      field.focus();
      return null;
    }
    return value;
  }
  function act(action, payload, secret) {
    remember();
    show("Sending…", false);
    fetch(api + "/" + action, {
      method: "POST",
      headers: { "Authorization": "Bearer " + secret, "Content-Type": "application/json" },
      body: JSON.stringify(payload),
      credentials: "omit",
      cache: "no-store"
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        var text = describe(action, response.status, body);
        if (!response.ok) {
          show(text, true);
          return;
        }
        // The reload shows the job as it is now; the line says what was done.
        var s = storage();
        if (s) {
          s.setItem(RESULT_KEY, JSON.stringify({ text: text, run: response.status === 202 ? body.id : null }));
        }
        window.location.reload();
      });
    }).catch(function (e) {
      show("The request did not reach the server: " + e.message, true);
    });
  }

  var s = storage();
  var kept = s && s.getItem(TOKEN_KEY);
  if (kept) {
    field.value = kept;
    keep.checked = true;
  }
  var last = s && s.getItem(RESULT_KEY);
  if (last) {
    s.removeItem(RESULT_KEY);
    try {
      last = JSON.parse(last);
      show(last.text, false);
      if (last.run) { setTimeout(function () { follow(last.run, POLLS); }, POLL_MS); }
    } catch (e) { /* an old entry: nothing to show */ }
  }
  keep.addEventListener("change", remember);
  field.addEventListener("change", remember);
  document.getElementById("run-now").addEventListener("click", function () {
    var t = token();
    if (t && window.confirm("Run " + job + " now, once, on one replica?")) {
      act("runs", {}, t);
    }
  });
  document.getElementById("suspend").addEventListener("click", function () {
    var t = token();
    if (!t) { return; }
    var reason = window.prompt("Why suspend " + job + "? (shown on the dashboard and in the logs)", "");
    if (reason === null) { return; }
    if (window.confirm("Suspend " + job + " on every replica? Its instants are not run until it is resumed.")) {
      act("suspend", { reason: reason }, t);
    }
  });
  document.getElementById("resume").addEventListener("click", function () {
    var t = token();
    if (t && window.confirm("Resume " + job + "? Its next instants run as scheduled.")) {
      act("resume", {}, t);
    }
  });
  ["run-now", "suspend", "resume"].forEach(function (id) { document.getElementById(id).disabled = false; });
})();

// The compare page: /static/compare.html?a=ID&b=ID runs `kalarite compare A B` through the
// API (the first time takes a little while), then shows its page: the same self-contained
// page the command writes (what changed, how the games ended, player stability, the
// significant differences, the paired analysis, every table).
"use strict";

async function showCompare() {
  const q = new URLSearchParams(location.search);
  const a = q.get("a") || "";
  const b = q.get("b") || "";
  const status = document.getElementById("status");
  if (!/^[0-9a-f]{12}$/.test(a) || !/^[0-9a-f]{12}$/.test(b)) {
    status.textContent = "give two study ids: compare.html?a=ID&b=ID";
    return;
  }
  const base = API + "/compare/" + a + "/" + b;
  try {
    const r = await api("/compare/" + a + "/" + b);
    if (r.nothing_to_compare) status.textContent = "nothing to compare: " + r.reason;
    // the page is a file of the API: a GET carries the token in its cookie
    location.replace(base + "/page");
  } catch (err) {
    status.className = "error";
    status.textContent = err.message;
  }
}

document.addEventListener("DOMContentLoaded", showCompare);

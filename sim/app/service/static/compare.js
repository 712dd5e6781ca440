// The compare page: /static/compare.html?a=ID&b=ID shows `kalarite compare A B` (its JSON
// headline and its text tables).
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
  try {
    const r = await api("/compare/" + a + "/" + b);
    const text = await api("/compare/" + a + "/" + b + "/text");
    const body = document.querySelector("#overview tbody");
    const line = (label, x, y) => body.append(el("tr", {}, el("th", { text: label }),
      el("td", { text: String(x) }), el("td", { text: String(y) })));
    line("study", a + " " + r.a.name, b + " " + r.b.name);
    line("games", r.a.games, r.b.games);
    line("players", JSON.stringify(r.a.policies), JSON.stringify(r.b.policies));
    line("content", r.a.content_hash, r.b.content_hash);
    line("engine", r.a.engine_hash, r.b.engine_hash);
    document.getElementById("overview").hidden = false;
    const sig = Object.entries(r.significant).filter(([, n]) => n > 0)
      .map(([t, n]) => t + ": " + n);
    document.getElementById("differs").textContent =
      "B differs from A in: " + (r.differs_in.length ? r.differs_in.join(", ") : "nothing recorded") +
      ". Significant differences (Holm-adjusted p < 0.05): " + (sig.length ? sig.join(", ") : "none") + ".";
    const notes = document.getElementById("notes");
    for (const n of r.notes) notes.append(el("li", { text: n }));
    const dl = document.getElementById("downloads");
    dl.append(el("a", { href: API + "/compare/" + a + "/" + b, text: "compare.json" }));
    dl.hidden = false;
    document.getElementById("text").textContent = text;
    status.textContent = "";
  } catch (err) {
    status.className = "error";
    status.textContent = err.message;
  }
}

document.addEventListener("DOMContentLoaded", showCompare);

// The studies page: the new-study box (builder.js), a live list of studies (polled every
// second), cancel/resume, links to reports and tables, and a compare of two finished studies.
"use strict";

const POLL_MS = 1000;
const picked = []; // ids ticked for compare, in the order ticked

async function loadOptions() {
  startBuilder(await api("/options"));
}

async function loadInfo() {
  const i = await api("/info");
  const ray = i.ray.mode === "cluster" ? "Ray cluster at " + i.ray.address : "local Ray";
  let text = "kalarite " + i.version + " · " + ray + " (" + i.ray.state + ")";
  if (i.ray.error) text += ": " + i.ray.error;
  text += " · " + i.max_running + " at a time";
  document.getElementById("info").textContent = text;
}

async function act(id, what) {
  try {
    await api("/studies/" + id + "/" + what, { method: "POST" });
  } catch (err) {
    alert(err.message);
  }
  refresh();
}

function resultLinks(s) {
  const cell = el("td", { class: "links" });
  if (s.state === "finished") {
    cell.append(el("a", { href: s.links.report, target: "_blank", class: "report", text: "report" }), " ");
    cell.append(el("a", { href: s.links.summary, text: "summary.json" }), " ");
    for (const [t, href] of Object.entries(s.links.tables)) {
      cell.append(el("a", { href, text: t }), " ");
    }
  }
  cell.append(el("a", { href: s.links.log, text: "log" }));
  return cell;
}

function row(s) {
  const tr = el("tr", { id: "study-" + s.id, "data-state": s.state });
  const pick = el("input", { type: "checkbox", class: "pick", "aria-label": "compare " + s.id });
  pick.disabled = s.state !== "finished";
  pick.checked = picked.includes(s.id);
  pick.onchange = () => {
    const at = picked.indexOf(s.id);
    if (pick.checked && at < 0) picked.push(s.id);
    if (!pick.checked && at >= 0) picked.splice(at, 1);
    while (picked.length > 2) picked.shift();
    updateCompare();
    refresh();
  };
  const state = el("td", { class: "state" },
    el("span", { class: "badge " + s.state, text: s.state + (s.phase ? " · " + s.phase : "") }));
  if (s.error) state.append(el("div", { class: "error", text: s.error }));
  const bar = el("progress", { max: String(s.games_total), value: String(s.games_done) });
  const games = el("td", { class: "games" }, bar,
    el("span", { text: " " + s.games_done.toLocaleString() + " / " + s.games_total.toLocaleString() }));
  const actions = el("td", { class: "actions" });
  if (s.state === "queued" || s.state === "running") {
    const b = el("button", { type: "button", class: "cancel", text: s.cancel_requested ? "stopping…" : "Cancel" });
    b.disabled = s.cancel_requested;
    b.onclick = () => act(s.id, "cancel");
    actions.append(b);
  }
  if (s.state === "failed" || s.state === "cancelled") {
    const b = el("button", { type: "button", class: "resume", text: "Resume" });
    b.onclick = () => act(s.id, "resume");
    actions.append(b);
  }
  tr.append(
    el("td", {}, pick),
    el("td", {}, el("code", { text: s.id })),
    el("td", { class: "name" }, el("div", { text: s.name }),
      el("div", { class: "muted small", text: s.summary.text })),
    state,
    games,
    el("td", { class: "num", text: s.games_per_s === null ? "–" : s.games_per_s.toFixed(1) }),
    el("td", { class: "num", text: s.state === "running" ? duration(s.eta_s) : "–" }),
    actions,
    resultLinks(s),
  );
  return tr;
}

function updateCompare() {
  const b = document.getElementById("compare");
  b.disabled = picked.length !== 2;
  b.onclick = () => {
    location.href = "/static/compare.html?a=" + picked[0] + "&b=" + picked[1];
  };
}

let refreshing = false;
async function refresh() {
  if (refreshing) return;
  refreshing = true;
  try {
    const { studies } = await api("/studies");
    const body = document.querySelector("#studies tbody");
    body.replaceChildren(...studies.map(row));
    document.getElementById("empty").hidden = studies.length > 0;
  } catch (err) {
    if (err.status === 401) document.getElementById("token-box").hidden = false;
  } finally {
    refreshing = false;
  }
}

let polling = false;
async function start() {
  try {
    await loadInfo();
    await loadOptions();
    document.getElementById("token-box").hidden = true;
  } catch (err) {
    if (err.status === 401) {
      document.getElementById("token-box").hidden = false;
      document.getElementById("info").textContent = "this service needs a token";
      return;
    }
    document.getElementById("info").textContent = "cannot reach the service: " + err.message;
    return;
  }
  await refresh();
  if (polling) return;
  polling = true;
  setInterval(refresh, POLL_MS);
  setInterval(() => loadInfo().catch(() => {}), 10 * POLL_MS);
}

document.addEventListener("DOMContentLoaded", () => {
  document.getElementById("token-form").onsubmit = (event) => {
    event.preventDefault();
    setToken(document.getElementById("token").value);
    start();
  };
  updateCompare();
  start();
});

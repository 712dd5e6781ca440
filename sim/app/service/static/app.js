// The studies page: the new-study box (builder.js), a live list of studies (server-sent
// events from /api/v1/events: the service says when anything changes, the page never polls),
// cancel/resume/delete, links to reports and tables, and a compare of two finished studies.
"use strict";

const RETRY_MS = 3000; // after the event stream failed for good (a 401, the service gone)
const picked = []; // ids ticked for compare, in the order ticked
let studies = []; // the list as the last event gave it
let you = { name: "local", role: "admin" }; // who this page's token is (from /info)

async function loadOptions() {
  startBuilder(await api("/options"));
}

async function loadInfo() {
  const i = await api("/info");
  const ray = i.ray.mode === "cluster" ? "Ray cluster at " + i.ray.address
    : i.ray.mode === "none" ? "no Ray (each study in its own process)" : "local Ray";
  let text = "kalarite " + i.version + " · " + ray + " (" + i.ray.state + ")";
  if (i.ray.error) text += ": " + i.ray.error;
  text += " · " + i.max_running + " at a time";
  if (i.auth_required) text += " · you: " + i.you.name + " (" + i.you.role + ")";
  you = i.you;
  document.getElementById("info").textContent = text;
}

async function act(id, what) {
  try {
    if (what === "delete") await api("/studies/" + id, { method: "DELETE" });
    else await api("/studies/" + id + "/" + what, { method: "POST" });
  } catch (err) {
    alert(err.message);
  }
  refresh();
}

// may this page's token cancel, resume or delete the study (its owner with submit, or admin)
function mine(s) {
  return you.role === "admin" || (you.role === "submit" && s.owner === you.name);
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
  pick.disabled = s.state !== "finished" || s.games_budget !== null; // a suggestion: many datasets
  pick.checked = picked.includes(s.id);
  pick.onchange = () => {
    const at = picked.indexOf(s.id);
    if (pick.checked && at < 0) picked.push(s.id);
    if (!pick.checked && at >= 0) picked.splice(at, 1);
    while (picked.length > 2) picked.shift();
    updateCompare();
    render();
  };
  const state = el("td", { class: "state" },
    el("span", { class: "badge " + s.state, text: s.state + (s.phase ? " · " + s.phase : "") }));
  if (s.error) state.append(el("div", { class: "error", text: s.error }));
  const bar = el("progress", { max: String(s.games_total), value: String(s.games_done) });
  // a suggestion plays until its goal is decided: its budget is the most it may play
  const count = s.games_budget === null
    ? s.games_done.toLocaleString() + " / " + s.games_total.toLocaleString()
    : s.games_done.toLocaleString() + " played (budget " + s.games_budget.toLocaleString() + ")";
  const games = el("td", { class: "games" }, bar, el("span", { text: " " + count }));
  const actions = el("td", { class: "actions" });
  if (!mine(s)) {
    // read role, or someone else's study: nothing to press
  } else if (s.state === "queued" || s.state === "running") {
    const b = el("button", { type: "button", class: "cancel", text: s.cancel_requested ? "stopping…" : "Cancel" });
    b.disabled = s.cancel_requested;
    b.onclick = () => act(s.id, "cancel");
    actions.append(b);
  }
  if (mine(s) && (s.state === "failed" || s.state === "cancelled")) {
    const b = el("button", { type: "button", class: "resume", text: "Resume" });
    b.onclick = () => act(s.id, "resume");
    actions.append(b);
  }
  if (mine(s) && s.state !== "running") {
    const b = el("button", { type: "button", class: "delete", text: "Delete" });
    b.onclick = () => {
      if (confirm("Delete study " + s.id + " (" + s.name + "), its dataset and its report?")) {
        act(s.id, "delete");
      }
    };
    actions.append(" ", b);
  }
  tr.append(
    el("td", {}, pick),
    el("td", {}, el("code", { text: s.id })),
    el("td", { class: "name" }, el("div", { text: s.name }),
      el("div", { class: "muted small", text: s.summary.text })),
    el("td", { class: "owner", text: s.owner || "–" }),
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

function render() {
  const body = document.querySelector("#studies tbody");
  body.replaceChildren(...studies.map(row));
  document.getElementById("empty").hidden = studies.length > 0;
}

// one read of the list, after this page changed something (the stream follows up anyway)
async function refresh() {
  try {
    studies = (await api("/studies")).studies;
    render();
  } catch (err) {
    if (err.status === 401) document.getElementById("token-box").hidden = false;
  }
}

let stream = null;
function follow() {
  if (stream) stream.close();
  stream = new EventSource(API + "/events"); // sends the token cookie, like a link does
  stream.addEventListener("studies", (event) => {
    studies = JSON.parse(event.data).studies;
    render();
  });
  stream.onerror = () => {
    // a dropped connection is retried by the EventSource itself; a refused one (401, the
    // service gone for good) closes it: say why, and try again a little later
    if (stream.readyState === EventSource.CLOSED) {
      refresh();
      setTimeout(follow, RETRY_MS);
    }
  };
}

let started = false;
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
  follow();
  if (started) return;
  started = true;
  setInterval(() => loadInfo().catch(() => {}), 10000); // Ray's state, now and then
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

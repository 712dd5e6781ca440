// The studies page: a spec builder and editor, a live list of studies (polled every second),
// cancel/resume, links to reports and tables, and a compare of two finished studies.
"use strict";

const POLL_MS = 1000;
const picked = []; // ids ticked for compare, in the order ticked

function tomlString(s) {
  return JSON.stringify(s); // a JSON string of printable text is a valid TOML basic string
}

function checkedValues(containerId) {
  return [...document.querySelectorAll("#" + containerId + " input:checked")].map((i) => i.value);
}

function fillSpec() {
  const decks = checkedValues("decks");
  const modes = checkedValues("modes");
  const lines = [
    "name = " + tomlString(document.getElementById("name").value),
    "decks = [" + decks.map(tomlString).join(", ") + "]",
    "modes = [" + modes.map(tomlString).join(", ") + "]",
    "policies = " + tomlString(document.getElementById("player").value),
    "games = " + (parseInt(document.getElementById("games").value, 10) || 0),
    "seed = " + (parseInt(document.getElementById("seed").value, 10) || 0),
  ];
  document.getElementById("spec").value = lines.join("\n") + "\n";
}

function choice(container, name, value, checked, note) {
  const input = el("input", { type: "checkbox", name, value });
  input.checked = checked;
  const label = el("label", {}, input, " " + value);
  if (note) label.append(el("span", { class: "muted", text: " (" + note + ")" }));
  container.append(label);
}

async function loadOptions() {
  const o = await api("/options");
  const decks = document.getElementById("decks");
  decks.replaceChildren();
  o.decks.forEach((d, i) => choice(decks, "deck", d, i < 2));
  const modes = document.getElementById("modes");
  modes.replaceChildren();
  o.modes.forEach((m) => choice(modes, "mode", m.name, m.name === "high-form", m.seats.join(" or ") + " seats"));
  const player = document.getElementById("player");
  player.replaceChildren();
  for (const p of o.players) player.append(el("option", { value: p.name, text: p.name }));
  const params = document.getElementById("player-params");
  const showParams = () => {
    const p = o.players.find((x) => x.name === player.value);
    params.textContent = p && p.parameters.length
      ? "parameters: " + p.parameters.join(", ") + " (e.g. " + p.name + ":" + p.parameters[0] + "=2)"
      : "";
  };
  player.onchange = showParams;
  showParams();
  if (!document.getElementById("spec").value) document.getElementById("spec").value = o.example;
}

async function loadInfo() {
  const i = await api("/info");
  const ray = i.ray.mode === "cluster" ? "Ray cluster at " + i.ray.address : "local Ray";
  let text = "kalarite " + i.version + " · " + ray + " (" + i.ray.state + ")";
  if (i.ray.error) text += ": " + i.ray.error;
  text += " · " + i.max_running + " at a time";
  document.getElementById("info").textContent = text;
}

async function submitSpec(event) {
  event.preventDefault();
  const message = document.getElementById("submit-message");
  message.className = "";
  message.textContent = "submitting…";
  try {
    const s = await api("/studies", {
      method: "POST",
      headers: { "Content-Type": "application/toml" },
      body: document.getElementById("spec").value,
    });
    message.textContent = "submitted " + s.id + " (" + s.games_total + " games)";
    refresh();
  } catch (err) {
    message.className = "error";
    message.textContent = err.message;
  }
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
    el("td", { class: "name", text: s.name }),
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
  document.getElementById("fill").onclick = fillSpec;
  document.getElementById("spec-form").onsubmit = submitSpec;
  document.getElementById("token-form").onsubmit = (event) => {
    event.preventDefault();
    setToken(document.getElementById("token").value);
    start();
  };
  updateCompare();
  start();
});

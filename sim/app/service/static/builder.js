// The new-study box: the form and the TOML text are one state. Editing the form rewrites its
// keys in the TOML (other keys and comments stay); editing the TOML sets the form, or says
// what the form cannot show. What Submit sends is the TOML; the service's own reading of it
// (POST /specs/check) is shown before sending, and the stored spec after.
"use strict";

const PREVIEW_MS = 300;
const WEAK_NOTE = "random players give weak play: their games all end by deck exhaustion, " +
  "mostly tied on points, so the tie-breakers decide them. Fast, for speed work, not for " +
  "balance figures.";

let options = null; // GET /options
let readable = true; // does the form understand the TOML?
let previewTimer = null;
let previewSeq = 0;

const $ = (id) => document.getElementById(id);

function specText() {
  return $("spec").value;
}

function boxes(id) {
  return [...document.querySelectorAll("#" + id + " input[type=checkbox]")];
}

function checked(id) {
  return boxes(id).filter((b) => b.checked).map((b) => b.value);
}

function count(n, what) {
  return n.toLocaleString() + " " + what + (n === 1 ? "" : "s");
}

function signed(n) {
  return (n > 0 ? "+" : "") + n;
}

function isText(v) {
  return typeof v === "string";
}

function isInt(v) {
  return typeof v === "number" && Number.isSafeInteger(v);
}

function numberInput(input) {
  // The TOML value of a number field: an integer, nothing (the key left out) or, for
  // anything else typed, the text as a TOML number the service will refuse with its reason.
  const v = input.value.trim();
  if (v === "") return undefined;
  const n = Number(v);
  return Number.isSafeInteger(n) ? n : { float: v };
}

// --- the form from the TOML ------------------------------------------------------------------

function setValue(input, value, source) {
  if (input !== source && input.value !== value) input.value = value;
}

function showPlayer(spec, source) {
  const select = $("player");
  let option = [...select.options].find((o) => o.value === spec);
  if (!option && spec !== "") {
    option = el("option", { value: spec, text: spec + " (from the TOML)", class: "extra" });
    select.append(option);
  }
  for (const o of [...select.options]) if (o.classList.contains("extra") && o !== option) o.remove();
  if (select !== source) select.value = spec;
  const base = spec.split(":")[0];
  const profile = options.players.find((p) => p.name === base && p.profile_of);
  const kind = profile ? profile.profile_of : base;
  const note = $("player-note");
  note.className = options.weak_players.includes(kind) ? "note warn" : "note muted";
  if (options.weak_players.includes(kind)) note.textContent = WEAK_NOTE;
  else if (spec === "") note.textContent = "the players are in the TOML (seat by seat or several)";
  else {
    const known = options.players.find((x) => x.name === base);
    let about = known ? known.description : "";
    if (known && known.rating !== null) about += " (ladder rating " + signed(known.rating) + ")";
    if (base === options.page_player) about += ": the strongest player, whose games are decided by play";
    note.textContent = about;
  }
  const p = options.players.find((x) => x.name === base);
  $("player-params").textContent = p && p.parameters.length
    ? "settings (in the TOML, e.g. \"" + p.name + ":" + p.parameters[0] + "=2\"): " +
      p.parameters.join(", ")
    : "";
}

function formFromToml(values, source) {
  // Set every field from the TOML's values; the settings the form cannot show, as text.
  const hidden = [];
  const keep = (key) => hidden.push(key + " = " + tomlValue(values[key]));

  const name = values.name;
  if (name === undefined || isText(name)) setValue($("name"), name || "", source);
  else keep("name");

  const decks = values.decks;
  const deckNames = boxes("decks").map((b) => b.value);
  const flat = Array.isArray(decks) && decks.every((d) => isText(d) && deckNames.includes(d));
  for (const b of boxes("decks")) b.checked = flat && decks.includes(b.value);
  if (decks !== undefined && !flat) keep("decks");

  const modeKey = "modes" in values ? "modes" : "mode" in values ? "mode" : null;
  let modes = modeKey ? values[modeKey] : options.spec_defaults.modes;
  const modeNames = boxes("modes").map((b) => b.value);
  if (modes === "all") modes = modeNames;
  if (isText(modes)) modes = [modes];
  const modesShown = Array.isArray(modes) && modes.every((m) => isText(m) && modeNames.includes(m));
  for (const b of boxes("modes")) b.checked = modesShown && modes.includes(b.value);
  if (!modesShown && modeKey) keep(modeKey);

  const polKey = "policies" in values ? "policies" : "policy" in values ? "policy" : null;
  let pols = polKey ? values[polKey] : options.spec_defaults.policies;
  if (Array.isArray(pols) && pols.length === 1 && Array.isArray(pols[0])) pols = pols[0];
  if (Array.isArray(pols) && pols.length === 1) pols = pols[0];
  if (isText(pols)) showPlayer(pols, source);
  else {
    showPlayer("", source);
    if (polKey) keep(polKey);
  }

  for (const key of ["games", "seed"]) {
    const v = values[key];
    if (v === undefined || isInt(v)) setValue($(key), v === undefined ? "" : String(v), source);
    else {
      setValue($(key), "", source);
      keep(key);
    }
  }

  const formKeys = ["name", "decks", "modes", "mode", "policies", "policy", "games", "seed"];
  for (const key of Object.keys(values)) if (!formKeys.includes(key)) keep(key);
  return hidden;
}

function readSpec(source) {
  // After any edit: the form from the TOML (or why it cannot show it), then a fresh check.
  const note = $("form-note");
  let hidden = [];
  try {
    hidden = formFromToml(tomlRead(specText()).values, source);
    readable = true;
  } catch (err) {
    if (!(err instanceof TomlUnreadable)) throw err;
    readable = false;
    note.replaceChildren(
      el("strong", { text: "The form cannot show this TOML" }),
      " (" + err.message + "). What Submit sends is the TOML as written. ",
      el("button", { type: "button", id: "from-form", text: "Replace the TOML with the form" }),
    );
    $("from-form").onclick = replaceFromForm;
  }
  for (const f of document.querySelectorAll("#builder fieldset")) f.disabled = !readable;
  if (readable && hidden.length) {
    note.replaceChildren(
      el("strong", { text: "The TOML holds settings the form cannot show: " }),
      ...hidden.flatMap((h, k) => [k ? ", " : "", el("code", { text: h })]),
      ". They are sent as written; changing a form field rewrites only that field's key.",
    );
  }
  note.hidden = readable && !hidden.length;
  schedulePreview();
}

// --- the TOML from the form ------------------------------------------------------------------

function fieldValues() {
  return {
    name: $("name").value,
    decks: checked("decks"),
    modes: checked("modes"),
    policies: $("player").value || undefined,
    games: numberInput($("games")),
    seed: numberInput($("seed")),
  };
}

function changesFor(input) {
  // The TOML keys one form field owns, with their new values.
  const f = fieldValues();
  if (input.closest("#decks")) return { decks: f.decks };
  if (input.closest("#modes")) return { modes: f.modes, mode: undefined };
  if (input.id === "player") return { policies: f.policies, policy: undefined };
  return { [input.id]: f[input.id] };
}

function onFormEdit(event) {
  if (!readable || !event.target.matches("input, select")) return;
  $("spec").value = tomlSet(specText(), changesFor(event.target));
  readSpec(event.target);
}

function replaceFromForm() {
  const f = fieldValues();
  let text = "";
  for (const [k, v] of Object.entries(f)) if (v !== undefined) text += k + " = " + tomlValue(v) + "\n";
  $("spec").value = text;
  readSpec(null);
}

// --- what the service reads from it ----------------------------------------------------------

function summaryList(s) {
  const dl = el("dl", { class: "summary" });
  const item = (term, ...value) => dl.append(el("dt", { text: term }), el("dd", {}, ...value));
  if (s.name) item("name", s.name);
  item("decks", s.decks.join(", ") + " (" + count(s.seat_lists, "seat list") + ")");
  item("modes", s.modes.map((m) => m.mode + " (" + count(m.matchups, "matchup") + ")").join(", "));
  item("players", s.players.join("; "));
  item(
    "games",
    el("strong", { text: s.games_per_matchup.toLocaleString() + " per matchup × " +
      count(s.matchups, "matchup") + " = " + count(s.total_games, "game") }),
  );
  item("seed", String(s.seed));
  const extra = [];
  if (s.turn_cap !== null && s.turn_cap !== undefined) extra.push("turn cap " + s.turn_cap);
  if (s.beings_without_effects) extra.push("beings without effects");
  if (s.content) extra.push("content " + s.content);
  if (extra.length) item("also", extra.join(", "));
  const box = el("div", {}, dl);
  if (s.weak_players.length) {
    box.append(el("p", { class: "note warn", text: WEAK_NOTE }));
  }
  return box;
}

function schedulePreview() {
  const box = $("preview");
  box.classList.add("pending");
  clearTimeout(previewTimer);
  previewTimer = setTimeout(preview, PREVIEW_MS);
}

async function preview() {
  const seq = ++previewSeq;
  const text = specText();
  const box = $("preview-body");
  try {
    const r = await api("/specs/check", {
      method: "POST",
      headers: { "Content-Type": "application/toml" },
      body: text,
    });
    if (seq !== previewSeq) return;
    box.replaceChildren(summaryList(r.summary));
    $("preview").dataset.total = String(r.summary.total_games);
  } catch (err) {
    if (seq !== previewSeq) return;
    box.replaceChildren(el("p", { class: "error", text: "Submit would be refused: " + err.message }));
    $("preview").dataset.total = "";
  }
  $("preview").classList.remove("pending");
}

async function submitSpec(event) {
  event.preventDefault();
  const message = $("submit-message");
  const stored = $("submitted");
  message.className = "";
  message.textContent = "submitting…";
  stored.hidden = true;
  try {
    const s = await api("/studies", {
      method: "POST",
      headers: { "Content-Type": "application/toml" },
      body: specText(),
    });
    message.textContent = "submitted " + s.id + " (" + s.games_total.toLocaleString() + " games)";
    stored.dataset.id = s.id;
    stored.replaceChildren(
      el("h3", {}, "Study ", el("code", { text: s.id }), " as the service stored it"),
      summaryList(s.summary),
      el("p", {}, el("a", { href: s.links.spec, target: "_blank", text: "its spec (TOML)" })),
    );
    stored.hidden = false;
    if (typeof refresh === "function") refresh();
  } catch (err) {
    message.className = "error";
    message.textContent = err.message;
  }
}

function choice(container, value, note) {
  const input = el("input", { type: "checkbox", value });
  const label = el("label", {}, input, " " + value);
  if (note) label.append(el("span", { class: "muted", text: " (" + note + ")" }));
  container.append(label);
}

function startBuilder(o) {
  // Build the fields from the service's options, then read the TOML into them (the TOML is
  // the one state: the page's defaults are the example spec).
  options = o;
  $("decks").replaceChildren();
  for (const d of o.decks) choice($("decks"), d);
  $("modes").replaceChildren();
  for (const m of o.modes) choice($("modes"), m.name, m.seats.join(" or ") + " seats");
  const select = $("player");
  select.replaceChildren();
  for (const p of o.players) {
    const label = p.name + (p.name === o.page_player ? " (strongest)" : "") +
      (o.weak_players.includes(p.name) ? " (weak play, fast)" : "");
    select.append(el("option", { value: p.name, text: label }));
  }
  $("builder").onsubmit = (event) => event.preventDefault(); // Enter in a field: no reload
  if (!specText()) $("spec").value = o.example;
  $("builder").oninput = onFormEdit;
  $("builder").onchange = onFormEdit;
  $("spec").oninput = () => readSpec($("spec"));
  $("spec-form").onsubmit = submitSpec;
  readSpec(null);
}

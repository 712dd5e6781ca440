// Shared by the pages: calls to /api/v1 with the token (if the service needs one), and small
// DOM helpers that only ever set text (never HTML), so names from specs cannot inject markup.
"use strict";

const API = "/api/v1";

function token() {
  return sessionStorage.getItem("kalarite_token") || "";
}

function setToken(value) {
  sessionStorage.setItem("kalarite_token", value);
  document.cookie = "kalarite_token=" + encodeURIComponent(value) + "; path=/; SameSite=Strict";
}

async function api(path, options = {}) {
  const headers = Object.assign({}, options.headers || {});
  if (token()) headers["Authorization"] = "Bearer " + token();
  const response = await fetch(API + path, Object.assign({}, options, { headers }));
  let body = null;
  const type = response.headers.get("content-type") || "";
  if (type.includes("application/json")) body = await response.json();
  else body = await response.text();
  if (!response.ok) {
    const message = body && body.error ? body.error : response.status + " " + response.statusText;
    const err = new Error(message);
    err.status = response.status;
    throw err;
  }
  return body;
}

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "text") node.textContent = v;
    else if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) node.append(c);
  return node;
}

function duration(seconds) {
  if (seconds === null || seconds === undefined) return "–";
  const s = Math.round(seconds);
  if (s < 60) return s + " s";
  if (s < 3600) return Math.floor(s / 60) + " min " + (s % 60) + " s";
  return Math.floor(s / 3600) + " h " + Math.floor((s % 3600) / 60) + " min";
}

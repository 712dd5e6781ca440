// The part of TOML a study spec uses, read and written in the page, so the form and the spec
// text can be one state: top-level `key = value` lines (strings, integers, booleans, arrays
// of them) and comments. Anything else (tables, floats, dates, multi-line strings...) is
// reported as something the form cannot read; the text is still what is sent, and the
// service's own TOML parser has the last word on it.
"use strict";

class TomlUnreadable extends Error {}

function tomlRead(text) {
  // {values: {key: value}, spans: {key: [start, end]}} (end: after the line's newline), or
  // throws TomlUnreadable with "line N: why". Integers beyond 2**53 are {big: "digits"},
  // floats {float: "as written"}.
  let i = 0;
  const values = {};
  const spans = {};
  const line = () => text.slice(0, i).split("\n").length;
  const fail = (why) => {
    throw new TomlUnreadable("line " + line() + ": " + why);
  };
  const blank = () => {
    while (i < text.length && (text[i] === " " || text[i] === "\t")) i++;
  };
  const comment = () => {
    if (text[i] === "#") while (i < text.length && text[i] !== "\n") i++;
  };
  const gap = () => { // spaces, comments and newlines (inside arrays)
    for (;;) {
      blank();
      comment();
      if (text[i] === "\n" || text[i] === "\r") i++;
      else return;
    }
  };
  const ESC = { b: "\b", t: "\t", n: "\n", f: "\f", r: "\r", '"': '"', "\\": "\\" };
  const basic = () => {
    if (text.startsWith('"""', i)) fail("multi-line strings are not read by the form");
    i++;
    let s = "";
    for (;;) {
      const c = text[i];
      if (c === undefined || c === "\n") fail("a string is not closed");
      i++;
      if (c === '"') return s;
      if (c !== "\\") {
        s += c;
        continue;
      }
      const e = text[i++];
      if (e in ESC) s += ESC[e];
      else if (e === "u" || e === "U") {
        const n = e === "u" ? 4 : 8;
        const hex = text.slice(i, i + n);
        if (!/^[0-9A-Fa-f]+$/.test(hex) || hex.length !== n) fail("a bad \\" + e + " escape");
        s += String.fromCodePoint(parseInt(hex, 16));
        i += n;
      } else fail("a bad escape \\" + e);
    }
  };
  const literal = () => {
    if (text.startsWith("'''", i)) fail("multi-line strings are not read by the form");
    const end = text.indexOf("'", i + 1);
    const nl = text.indexOf("\n", i + 1);
    if (end < 0 || (nl >= 0 && nl < end)) fail("a string is not closed");
    const s = text.slice(i + 1, end);
    i = end + 1;
    return s;
  };
  const value = () => {
    const c = text[i];
    if (c === '"') return basic();
    if (c === "'") return literal();
    if (c === "[") {
      i++;
      const out = [];
      for (;;) {
        gap();
        if (text[i] === "]") {
          i++;
          return out;
        }
        out.push(value());
        gap();
        if (text[i] === ",") i++;
        else if (text[i] !== "]") fail("expected , or ] in an array");
      }
    }
    if (c === "{") fail("inline tables are not read by the form");
    const m = /^[^\s,\]#]+/.exec(text.slice(i));
    if (!m) fail("a value is missing");
    const word = m[0];
    i += word.length;
    if (word === "true") return true;
    if (word === "false") return false;
    if (/^[+-]?(0|[1-9](_?[0-9])*)$/.test(word)) {
      const digits = word.replace(/_/g, "");
      const n = Number(digits);
      return Number.isSafeInteger(n) ? n : { big: digits };
    }
    if (/^[+-]?(0|[1-9](_?[0-9])*)(\.[0-9](_?[0-9])*)?([eE][+-]?[0-9](_?[0-9])*)?$/.test(word)) {
      return { float: word }; // kept as written: no spec key takes a float
    }
    fail("the form reads strings, numbers, booleans and arrays, not " + JSON.stringify(word));
  };
  while (i < text.length) {
    const start = i;
    blank();
    comment();
    if (i >= text.length) break;
    if (text[i] === "\n" || text[i] === "\r") {
      i++;
      continue;
    }
    if (text[i] === "[") fail("tables ([...]) are not read by the form");
    const m = /^[A-Za-z0-9_-]+/.exec(text.slice(i));
    if (!m) fail("expected a key (the form reads plain keys only)");
    const key = m[0];
    i += key.length;
    blank();
    if (text[i] === ".") fail("dotted keys are not read by the form");
    if (text[i] !== "=") fail("expected = after " + key);
    i++;
    blank();
    const v = value();
    blank();
    comment();
    if (text[i] === "\r") i++;
    if (i < text.length && text[i] !== "\n") fail("unexpected text after the value of " + key);
    if (i < text.length) i++;
    if (key in values) fail("the key " + key + " is given twice");
    values[key] = v;
    spans[key] = [start, i];
  }
  return { values, spans };
}

function tomlValue(v) {
  // A string, integer, boolean or array as TOML (a JSON string of text is a TOML string).
  if (Array.isArray(v)) return "[" + v.map(tomlValue).join(", ") + "]";
  if (typeof v === "string") return JSON.stringify(v).replace(/\u007f/g, "\\u007f");
  if (v && typeof v === "object" && "big" in v) return v.big;
  if (v && typeof v === "object" && "float" in v) return v.float;
  return String(v);
}

function tomlSet(text, changes) {
  // ``text`` with each key of ``changes`` set to its value (undefined: the key removed),
  // each in place of its own line, a new key at the end; comments and other keys are kept.
  const { spans } = tomlRead(text);
  const edits = [];
  let tail = "";
  for (const [key, v] of Object.entries(changes)) {
    const line = v === undefined ? "" : key + " = " + tomlValue(v) + "\n";
    if (key in spans) edits.push([spans[key][0], spans[key][1], line]);
    else tail += line;
  }
  edits.sort((a, b) => b[0] - a[0]);
  let out = text;
  for (const [start, end, line] of edits) {
    out = out.slice(0, start) + line + out.slice(end); // a comment after the value goes too
  }
  if (tail && out && !out.endsWith("\n")) out += "\n";
  return out + tail;
}

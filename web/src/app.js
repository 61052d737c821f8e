// The calculator page: the editor, the settings, and the views of the estimate, the what-if
// comparison, the forecast and the advice, each drawn from what the engine (engine.js)
// prints — figures rounded by ddbcost itself, charts from its HTML report — and the
// exports and the share link. Every figure on the page comes from the engine; the page only
// groups a rounded amount's digits in thousands.
"use strict";

(function () {
  const $ = function (id) { return document.getElementById(id); };
  const editor = $("editor");
  const state = { schema: null, timer: null, rest: null, lastEstimate: null, updates: 0, undo: null };

  // ---- settings ----------------------------------------------------------------------
  function options() {
    return {
      prices: $("prices").value,
      currency: $("currency").value.trim().toUpperCase(),
      fxRate: $("fx-rate").value.trim(),
      fxDate: $("fx-date").value,
      monthHours: $("month-hours").value.trim(),
      freeTier: $("free-tier").checked,
      period: $("period").value,
    };
  }

  function thisMonth() {
    const d = new Date();
    return d.getUTCFullYear() + "-" + String(d.getUTCMonth() + 1).padStart(2, "0");
  }

  function nextMonth() {
    const d = new Date();
    const m = d.getUTCMonth() + 1;
    return m === 12 ? (d.getUTCFullYear() + 1) + "-01" : d.getUTCFullYear() + "-" + String(m + 1).padStart(2, "0");
  }

  // ---- amounts (already rounded by the engine, or rounded here exactly) --------------
  function grouped(rounded) {
    const neg = rounded.startsWith("-");
    const [whole, frac] = (neg ? rounded.slice(1) : rounded).split(".");
    const g = whole.replace(/\B(?=(\d{3})+(?!\d))/g, ",");
    return (neg ? "-" : "") + g + (frac !== undefined ? "." + frac : "");
  }

  // Half away from zero to `dp` decimals, on the digits (never through a float).
  function round(exact, dp) {
    const neg = exact.startsWith("-");
    let [whole, frac] = (neg ? exact.slice(1) : exact).split(".");
    frac = (frac || "").padEnd(dp + 1, "0");
    let digits = BigInt(whole + frac.slice(0, dp));
    if (frac.charCodeAt(dp) >= 53) digits += 1n; // the next digit is 5 or more
    let text = digits.toString().padStart(dp + 1, "0");
    text = dp > 0 ? text.slice(0, text.length - dp) + "." + text.slice(text.length - dp) : text;
    return (neg && /[1-9]/.test(text) ? "-" : "") + text;
  }

  function decimals(rounded) {
    const i = rounded.indexOf(".");
    return i < 0 ? 0 : rounded.length - i - 1;
  }

  function money(rounded, currency) {
    return grouped(rounded) + " " + currency;
  }

  // ---- small DOM helpers -------------------------------------------------------------
  function el(tag, attrs, children) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") e.textContent = v;
      else e.setAttribute(k, v);
    }
    for (const c of children || []) e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    return e;
  }

  function table(caption, head, rows, numeric) {
    const t = el("table", {}, [el("caption", { text: caption })]);
    const tr = el("tr");
    head.forEach(function (h, i) { tr.appendChild(el("th", { scope: "col", class: numeric[i] ? "num" : "" , text: h })); });
    t.appendChild(el("thead", {}, [tr]));
    const body = el("tbody");
    for (const r of rows) {
      const row = el("tr");
      r.forEach(function (c, i) {
        const cell = c instanceof Node ? el("td", {}, [c]) : el(i === 0 ? "th" : "td", { class: numeric[i] ? "num" : "", text: String(c) });
        if (i === 0 && !(c instanceof Node)) cell.setAttribute("scope", "row");
        row.appendChild(cell);
      });
      body.appendChild(row);
    }
    t.appendChild(body);
    // A wide table scrolls on its own on a narrow screen; the page does not.
    const wrap = el("div", { class: "scroll", tabindex: "0", role: "region", "aria-label": caption }, [t]);
    return wrap;
  }

  function csvRows(text) {
    const rows = [];
    let row = [], field = "", quoted = false;
    for (let i = 0; i < text.length; i += 1) {
      const ch = text[i];
      if (quoted) {
        if (ch === '"' && text[i + 1] === '"') { field += '"'; i += 1; }
        else if (ch === '"') quoted = false;
        else field += ch;
      } else if (ch === '"') quoted = true;
      else if (ch === ",") { row.push(field); field = ""; }
      else if (ch === "\n") { row.push(field); rows.push(row); row = []; field = ""; }
      else if (ch !== "\r") field += ch;
    }
    if (field !== "" || row.length) { row.push(field); rows.push(row); }
    return rows;
  }

  // The SVG charts of ddbcost's HTML report, each under its heading.
  function charts(html) {
    const doc = new DOMParser().parseFromString(html, "text/html");
    const found = [];
    let heading = "";
    for (const node of doc.body.querySelectorAll("h2, svg")) {
      if (node.tagName.toLowerCase() === "h2") { heading = node.textContent; continue; }
      if (node.closest("svg") !== node) continue;
      const figure = el("figure");
      figure.appendChild(document.importNode(node, true));
      figure.appendChild(el("figcaption", { text: heading }));
      found.push({ heading: heading, figure: figure });
    }
    return found;
  }

  // ---- the editor: line numbers, errors at their line, field help --------------------
  function drawGutter(errorLine) {
    const n = editor.value.split("\n").length;
    const lines = [];
    for (let i = 1; i <= n; i += 1) lines.push(i === errorLine ? "▶" + i : String(i));
    $("gutter").textContent = lines.join("\n");
    $("gutter").scrollTop = editor.scrollTop;
  }

  function showError(error) {
    const box = $("error");
    box.textContent = "";
    if (!error) {
      box.hidden = true;
      editor.removeAttribute("aria-invalid");
      drawGutter(null);
      return;
    }
    editor.setAttribute("aria-invalid", "true");
    const where = error.line ? "Line " + error.line + (error.column ? ", column " + error.column : "") : "Error";
    box.appendChild(el("strong", { id: "error-where", text: where + ": " }));
    box.appendChild(el("span", { id: "error-message", text: error.message }));
    if (error.path) box.appendChild(el("div", { class: "path", text: "at " + error.path }));
    if (error.help) box.appendChild(el("div", { class: "help", text: error.help }));
    if (error.line) {
      const go = el("button", { type: "button", text: "Go to line " + error.line });
      go.addEventListener("click", function () { selectLine(error.line); });
      box.appendChild(go);
    }
    box.hidden = false;
    drawGutter(error.line || null);
  }

  function selectLine(line) {
    const lines = editor.value.split("\n");
    let start = 0;
    for (let i = 0; i < line - 1 && i < lines.length; i += 1) start += lines[i].length + 1;
    editor.focus();
    editor.setSelectionRange(start, start + (lines[line - 1] || "").length);
  }

  // The dotted path of the key on the caret's line, from indentation.
  function pathAtCaret() {
    const end = editor.value.indexOf("\n", editor.selectionStart);
    const before = editor.value.slice(0, end < 0 ? editor.value.length : end).split("\n");
    const stack = [];
    for (const line of before) {
      const m = line.match(/^(\s*)(?:-\s+)?["']?([A-Za-z0-9_.\-]+)["']?\s*:/);
      if (!m) continue;
      const indent = m[1].length;
      while (stack.length && stack[stack.length - 1].indent >= indent) stack.pop();
      stack.push({ indent: indent, key: m[2] });
    }
    return stack.map(function (s) { return s.key; });
  }

  function resolve(node) {
    for (let i = 0; node && i < 8; i += 1) {
      if (node.$ref) { node = state.schema.$defs[node.$ref.split("/").pop()]; continue; }
      const alt = (node.anyOf || node.oneOf || []).find(function (a) { return a.$ref || a.properties || a.additionalProperties; });
      if (alt && !node.properties) { node = Object.assign({}, alt, { description: node.description || alt.description }); continue; }
      break;
    }
    return node;
  }

  function fieldHelp() {
    if (!state.schema) return;
    const path = pathAtCaret();
    let node = state.schema, described = null, shown = [];
    for (const key of path) {
      const here = resolve(node) || {};
      if (here.properties && here.properties[key]) { node = here.properties[key]; shown.push(key); }
      else if (here.additionalProperties && typeof here.additionalProperties === "object") { node = here.additionalProperties; shown.push(key); }
      else { node = null; break; }
      described = node.description || resolve(node).description || described;
    }
    const help = $("field-help");
    if (!node) { help.textContent = path.length ? "`" + path.join(".") + "` is not a field ddbcost reads." : ""; return; }
    const fields = Object.keys((resolve(node) || {}).properties || {});
    help.textContent = (shown.length ? shown.join(".") + ": " : "") + (described || "") +
      (fields.length ? " Fields: " + fields.join(", ") + "." : "");
  }

  // ---- the views ---------------------------------------------------------------------
  function estimateView(text, o) {
    const out = DDBCost.estimate(text, o, "json");
    if (out.error) { showError(out.error); $("total").textContent = "—"; state.lastEstimate = null; return null; }
    showError(null);
    const doc = JSON.parse(out.stdout);
    state.lastEstimate = doc;
    const dp = decimals(doc.total_rounded);
    $("total").textContent = money(doc.total_rounded, doc.currency);
    $("notes").textContent = "";
    for (const w of doc.warnings) $("notes").appendChild(el("p", { class: "note", text: w }));
    const holder = $("tables");
    holder.textContent = "";
    holder.appendChild(table("Per table", ["Table", "Monthly cost"],
      doc.tables.map(function (t) { return [t.name, money(round(t.subtotal, dp), doc.currency)]; }), [false, true]));
    $("lines").textContent = "";
    $("lines").appendChild(table("Line items", ["Line", "Table", "Quantity", "Unit price", "Cost"],
      doc.line_items.map(function (l) {
        return [l.label, l.table || "", l.quantity === null ? "unknown" : l.quantity + " " + l.unit,
          l.unit_price === null ? "" : l.unit_price, l.cost_rounded === null ? "unknown" : money(l.cost_rounded, doc.currency)];
      }), [false, false, true, true, true]));
    return doc;
  }

  // Per component and per access pattern (ddbcost's own `--by` breakdowns), and the charts
  // of its HTML report.
  function breakdownView(text, o) {
    const holder = $("breakdowns");
    holder.textContent = "";
    for (const by of ["component", "pattern"]) {
      const csv = DDBCost.breakdown(text, o, by);
      if (csv.error) continue;
      const rows = csvRows(csv.stdout).slice(1);
      holder.appendChild(table("Per " + (by === "pattern" ? "access pattern" : by), [by === "pattern" ? "Access pattern" : "Component", "Monthly cost"],
        rows.map(function (r) { return [r[0], money(r[2], r[3])]; }), [false, true]));
    }
    const html = DDBCost.estimate(text, o, "html");
    $("charts").textContent = "";
    if (!html.error) for (const c of charts(html.stdout)) $("charts").appendChild(c.figure);
  }

  function whatIfView(text, o) {
    const view = $("whatif");
    view.textContent = "";
    const sets = $("sets").value.split("\n");
    const hasSets = sets.some(function (l) { return l.trim() !== "" && !l.trim().startsWith("#"); });
    if (!/^scenarios:/m.test(text) && !hasSets) {
      view.appendChild(el("p", { class: "help", text: "No scenarios in this workload: add changes above to compare." }));
      return;
    }
    const out = DDBCost.compare(text, o, sets, "json");
    if (out.error) {
      view.appendChild(el("p", { class: "error", id: "whatif-error", text: out.error.message + (out.error.help ? " " + out.error.help : "") }));
      return;
    }
    const c = JSON.parse(out.stdout);
    const base = c.baseline;
    const rows = [["baseline", "", money(base.total_rounded, c.currency), "", ""]];
    for (const s of c.scenarios) {
      const dp = decimals(s.total_rounded);
      rows.push([s.name, s.kind, money(s.total_rounded, c.currency), money(round(s.delta, dp), c.currency), s.delta_percent + " %"]);
    }
    view.appendChild(table("Scenarios", ["Scenario", "Kind", "Monthly total", "Delta", "Delta %"], rows, [false, false, true, true, true]));
    const html = DDBCost.compare(text, o, sets, "html");
    if (!html.error) {
      for (const ch of charts(html.stdout)) {
        if (/Waterfall|Monthly totals/.test(ch.heading)) view.appendChild(ch.figure);
      }
    }
  }

  function forecastView(text, o) {
    const view = $("forecast");
    view.textContent = "";
    const months = parseInt($("months").value, 10) || 12;
    const out = DDBCost.forecast(text, o, months, $("start").value || nextMonth(), "json");
    if (out.error) { view.appendChild(el("p", { class: "error", text: out.error.message })); return; }
    const f = JSON.parse(out.stdout);
    const rows = f.months.map(function (m) { return [m.period, money(m.total_rounded, f.currency)]; });
    if (f.total_rounded) rows.push(["All " + f.months.length + " months", money(f.total_rounded, f.currency)]);
    view.appendChild(table("Forecast", ["Month", "Total"], rows, [false, true]));
  }

  function adviceView(text, o) {
    const view = $("advice");
    view.textContent = "";
    const out = DDBCost.advise(text, o, "json");
    if (out.error) { view.appendChild(el("p", { class: "error", text: out.error.message })); return; }
    const a = JSON.parse(out.stdout);
    if (!a.suggestions.length) { view.appendChild(el("p", { class: "help", text: "No suggestion saves money on this workload." })); return; }
    const dp = decimals(state.lastEstimate ? state.lastEstimate.total_rounded : "0.00");
    const list = el("ol", { id: "suggestions" });
    a.suggestions.forEach(function (s) {
      const saving = money(round(s.monthly_saving, dp), a.currency);
      const apply = el("button", { type: "button", "data-suggestion": s.name, text: "Apply" });
      apply.setAttribute("aria-label", "Apply: " + s.title);
      apply.addEventListener("click", function () { applySuggestion(s, saving); });
      list.appendChild(el("li", {}, [
        el("strong", { text: s.title }), " — saves ", el("span", { class: "saving", text: saving }), " a month (" + round(s.saving_percent, 1) + " %), to " + money(round(s.monthly_total, dp), a.currency) + " ",
        apply,
        el("p", { class: "help", text: s.rule }),
      ]));
    });
    view.appendChild(list);
  }

  function applySuggestion(s, saving) {
    const before = state.lastEstimate;
    const previous = editor.value;
    const out = DDBCost.applyPatch(previous, s.patch);
    if (out.code !== 0) { $("status").textContent = "Could not apply " + s.name + ": " + out.error.message; return; }
    editor.value = out.text;
    state.undo = previous;
    $("undo").hidden = false;
    $("example").value = "";
    update();
    const after = state.lastEstimate;
    $("status").textContent = "Applied " + s.name + ": saves " + saving + " a month" +
      (before && after ? " (" + money(before.total_rounded, before.currency) + " → " + money(after.total_rounded, after.currency) + ")" : "") +
      ". The workload was rewritten without its comments.";
  }

  // The estimate first (it is what the user waits for), the other views just after.
  function update() {
    clearTimeout(state.timer);
    clearTimeout(state.rest);
    document.body.dataset.ready = "false";
    const text = editor.value, o = options();
    drawGutter(null);
    const doc = estimateView(text, o);
    const done = function () {
      state.updates += 1;
      document.body.dataset.updates = String(state.updates);
      document.body.dataset.ready = "true";
    };
    if (!doc) { done(); return; }
    state.rest = setTimeout(function () {
      breakdownView(text, o);
      whatIfView(text, o);
      forecastView(text, o);
      adviceView(text, o);
      done();
    }, 0);
  }

  function later() {
    clearTimeout(state.timer);
    state.timer = setTimeout(update, 200);
  }

  // ---- exports -----------------------------------------------------------------------
  const extension = { csv: "csv", focus: "focus.csv", json: "json", markdown: "md", html: "html" };

  function exportAs(format) {
    const o = options();
    const of = $("export-of").value;
    const out = of === "compare" ? DDBCost.compare(editor.value, o, $("sets").value.split("\n"), format)
      : DDBCost.estimate(editor.value, o, format);
    if (out.error) { $("export-status").textContent = "Not exported: " + out.error.message; return; }
    const name = "ddbcost-" + of + "." + extension[format];
    const type = format === "html" ? "text/html" : format === "json" ? "application/json" : format === "markdown" ? "text/markdown" : "text/csv";
    const url = URL.createObjectURL(new Blob([out.stdout], { type: type + ";charset=utf-8" }));
    const a = el("a", { href: url, download: name });
    document.body.appendChild(a);
    a.click();
    a.remove();
    setTimeout(function () { URL.revokeObjectURL(url); }, 1000);
    // The command line's advice to write HTML to a file is what a download does already.
    const notes = out.notes.filter(function (n) { return !n.startsWith("note: an HTML report is meant for a file"); });
    $("export-status").textContent = "Exported " + name + " (" + out.stdout.length + " characters)" +
      (notes.length ? "; " + notes.join(" ") : "") + ".";
  }

  // ---- share links: the page's state, deflated, base64url, in the fragment -----------
  async function deflate(text) {
    const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
    const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
    let bin = "";
    for (const b of bytes) bin += String.fromCharCode(b);
    return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  async function inflate(b64) {
    const bin = atob(b64.replace(/-/g, "+").replace(/_/g, "/"));
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i += 1) bytes[i] = bin.charCodeAt(i);
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
    return new Response(stream).text();
  }

  const shared = ["prices", "currency", "fx-rate", "fx-date", "month-hours", "period", "months", "start", "sets"];

  async function share() {
    const s = { workload: editor.value, freeTier: $("free-tier").checked, fields: {} };
    for (const id of shared) if ($(id).value) s.fields[id] = $(id).value;
    const link = location.href.split("#")[0] + "#w=" + await deflate(JSON.stringify(s));
    $("share-link").value = link;
    history.replaceState(null, "", link);
    $("status").textContent = "Share link made (" + link.length + " characters); it is also this page's address now.";
  }

  async function restore() {
    const m = location.hash.match(/^#w=([A-Za-z0-9_-]+)$/);
    if (!m) return false;
    try {
      const s = JSON.parse(await inflate(m[1]));
      editor.value = s.workload;
      $("free-tier").checked = !!s.freeTier;
      for (const id of shared) if (s.fields && typeof s.fields[id] === "string") $(id).value = s.fields[id];
      $("example").value = "";
      $("status").textContent = "Restored from the share link.";
      return true;
    } catch (e) {
      $("status").textContent = "The share link could not be read (" + e.message + "); showing an example.";
      return false;
    }
  }

  // ---- start -------------------------------------------------------------------------
  async function start() {
    const loadMs = await DDBCost.ready;
    const examples = window.DDBCOST_EXAMPLES;
    const select = $("example");
    select.appendChild(el("option", { value: "", text: "(your own)" }));
    for (const name of Object.keys(examples)) select.appendChild(el("option", { value: name, text: name }));
    const prices = DDBCost.prices();
    if (!prices.error) {
      for (const p of JSON.parse(prices.stdout)) {
        $("prices").appendChild(el("option", { value: p.id, text: p.id + " — " + p.region + ", " + p.currency + ", " + p.effective }));
      }
    }
    const schema = DDBCost.schema();
    if (!schema.error) state.schema = JSON.parse(schema.stdout);
    $("version").textContent = DDBCost.run(["--version"], "").stdout.trim() + ".";
    // No month chosen: exports are dated in this month and priced, like the bill on the page,
    // for a 730-hour month; a chosen month prices its own hours (`--period`).
    $("period").placeholder = thisMonth();
    $("start").value = nextMonth();
    if (!await restore()) {
      select.value = "cloudshop.yaml";
      editor.value = examples["cloudshop.yaml"];
    }
    select.addEventListener("change", function () {
      if (!select.value) return;
      editor.value = examples[select.value];
      update();
    });
    editor.addEventListener("input", function () { $("example").value = ""; drawGutter(null); later(); });
    editor.addEventListener("scroll", function () { $("gutter").scrollTop = editor.scrollTop; });
    for (const ev of ["keyup", "click", "focus"]) editor.addEventListener(ev, fieldHelp);
    for (const id of ["prices", "currency", "fx-rate", "fx-date", "month-hours", "free-tier", "period", "months", "start", "sets"]) {
      $(id).addEventListener("input", later);
      $(id).addEventListener("change", later);
    }
    for (const b of document.querySelectorAll("[data-export]")) {
      b.addEventListener("click", function () { exportAs(b.dataset.export); });
    }
    $("share").addEventListener("click", share);
    $("undo").addEventListener("click", function () {
      if (state.undo === null) return;
      editor.value = state.undo;
      state.undo = null;
      $("undo").hidden = true;
      update();
      $("status").textContent = "Undone: the workload is as it was before the suggestion.";
    });
    window.addEventListener("hashchange", async function () { if (await restore()) update(); });
    const began = performance.now();
    update();
    // performance.now() counts from the start of the page's navigation.
    const shown = performance.now();
    $("timing").textContent = "Engine started in " + Math.round(loadMs) + " ms; first estimate shown " +
      Math.round(shown - began) + " ms later (" + Math.round(shown) + " ms after the page was opened).";
    if (!$("status").textContent.startsWith("Restored")) $("status").textContent = "Ready.";
    window.DDBCOST_TIMING = { engineMs: loadMs, firstEstimateMs: shown - began, sinceOpenMs: shown };
  }

  start().catch(function (e) {
    $("status").textContent = "The engine did not start: " + e.message;
    document.body.dataset.ready = "failed";
  });
})();

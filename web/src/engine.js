// The engine's API in the page: loads ddbcost compiled to WebAssembly (from the .wasm beside
// the page over HTTP, from the base64 copy in ddbcost_web_bg.wasm.js when the page is opened
// from disk) and wraps its one export, which runs a ddbcost command in memory, in the calls
// the page makes: estimate, compare, forecast, advise, prices, schema, applyPatch. Every
// answer is what `ddbcost` prints for the same arguments and standard input, byte for byte;
// a refusal carries the command line's `ddbcost.error/v1` object (message, path, line,
// column, help). The page's clock is read here, once per call, as the day the run falls on.
"use strict";

window.DDBCost = (function () {
  function loadScript(src) {
    return new Promise(function (resolve, reject) {
      const s = document.createElement("script");
      s.src = src;
      s.onload = resolve;
      s.onerror = function () { reject(new Error("cannot load " + src)); };
      document.head.appendChild(s);
    });
  }

  function decode(base64) {
    const text = atob(base64);
    const bytes = new Uint8Array(text.length);
    for (let i = 0; i < text.length; i += 1) bytes[i] = text.charCodeAt(i);
    return bytes;
  }

  async function start() {
    const began = performance.now();
    if (location.protocol === "file:") {
      await loadScript("ddbcost_web_bg.wasm.js");
      await wasm_bindgen({ module_or_path: decode(window.DDBCOST_WASM_BASE64) });
    } else {
      await wasm_bindgen({ module_or_path: "ddbcost_web_bg.wasm" });
    }
    return performance.now() - began;
  }

  const ready = start();

  // Days since 1970-01-01 (UTC): the day `ddbcost` would run on now.
  function today() {
    return Math.floor(Date.now() / 86400000);
  }

  // `ddbcost ARGS…` with `stdin`; `error` is the parsed JSON error of a refused run.
  function run(args, stdin) {
    const all = args.concat(["--error-format", "json"]);
    let out;
    try {
      out = JSON.parse(wasm_bindgen.run(JSON.stringify(all), stdin || "", today()));
    } catch (e) {
      // A trap is a bug in ddbcost (it is built to refuse, never to panic): say so, and
      // that the page must be reloaded (the engine's memory may be inconsistent after it).
      return { args: args, code: 101, stdout: "", stderr: String(e), notes: [],
        error: { message: "the engine failed (" + e + "): this is a bug in ddbcost; reload the page", help: null, line: null } };
    }
    out.args = args;
    out.notes = [];
    out.error = null;
    const lines = out.stderr.split("\n").filter(function (l) { return l.trim() !== ""; });
    for (const line of lines) {
      if (line.startsWith("{")) {
        try { out.error = JSON.parse(line); continue; } catch (_) { /* a note */ }
      }
      out.notes.push(line);
    }
    if (out.code !== 0 && !out.error) {
      out.error = { message: lines.join("\n") || "exit code " + out.code, help: null, line: null };
    }
    return out;
  }

  // The settings options every pricing command takes.
  function settings(o) {
    const a = [];
    if (o.prices) a.push("--prices", o.prices);
    if (o.monthHours) a.push("--month-hours", o.monthHours);
    if (o.gb) a.push("--gb", o.gb);
    if (o.freeTier) a.push("--free-tier");
    if (o.currency) {
      a.push("--currency", o.currency);
      if (o.fxRate) a.push("--fx-rate", o.fxRate);
      if (o.fxDate) a.push("--fx-date", o.fxDate);
    }
    return a;
  }

  // `--period` dates the CSV, FOCUS and HTML exports only.
  function period(o, format) {
    return o.period && ["csv", "focus", "html"].indexOf(format) >= 0 ? ["--period", o.period] : [];
  }

  // `--set` lines: `alt NAME` starts a named alternative, other lines are `PATH=VALUE`.
  function alternatives(lines) {
    const a = [];
    for (const raw of lines) {
      const line = raw.trim();
      if (line === "" || line.startsWith("#")) continue;
      const alt = line.match(/^alt\s+(\S+)$/);
      if (alt) a.push("--alt", alt[1]);
      else a.push("--set", line);
    }
    return a;
  }

  return {
    ready: ready,
    today: today,
    run: run,
    estimate: function (text, o, format) {
      format = format || "json";
      return run(["estimate", "-", "--format", format].concat(period(o, format), settings(o)), text);
    },
    breakdown: function (text, o, by) {
      return run(["estimate", "-", "--by", by, "--format", "csv"].concat(settings(o)), text);
    },
    compare: function (text, o, setLines, format) {
      format = format || "json";
      return run(["compare", "-", "--format", format].concat(alternatives(setLines), period(o, format), settings(o)), text);
    },
    forecast: function (text, o, months, start, format) {
      return run(["forecast", "-", "--months", String(months), "--start", start, "--format", format || "json"].concat(settings(o)), text);
    },
    advise: function (text, o, format) {
      return run(["advise", "-", "--format", format || "json"].concat(settings(o)), text);
    },
    prices: function () { return run(["prices", "--format", "json"], ""); },
    schema: function () { return run(["schema", "workload"], ""); },
    applyPatch: function (text, patch) {
      return JSON.parse(wasm_bindgen.apply_patch(text, JSON.stringify(patch)));
    },
  };
})();

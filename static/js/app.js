/* Offerdesk front end: draws plotly figures handed over with json_script, no inline scripts. */
(function () {
  "use strict";

  // Below this width a figure's layout.meta.narrow overrides apply (accounts/charts.py NARROW_PX).
  var NARROW_PX = 560;
  // Figures draw "ink" marks in this colour; the page's --chart-ink replaces it (dark mode).
  var INK = "#212529";

  function isObject(v) { return v !== null && typeof v === "object" && !Array.isArray(v); }

  function merge(base, over) {
    var out = Object.assign({}, base);
    Object.keys(over || {}).forEach(function (k) {
      out[k] = isObject(out[k]) && isObject(over[k]) ? merge(out[k], over[k]) : over[k];
    });
    return out;
  }

  function cssVar(name, fallback) {
    var v = window.getComputedStyle(document.documentElement).getPropertyValue(name);
    return (v && v.trim()) || fallback;
  }

  function inked(value, ink) {
    if (value === INK) { return ink; }
    if (Array.isArray(value)) { return value.map(function (v) { return inked(v, ink); }); }
    if (isObject(value)) {
      var out = {};
      Object.keys(value).forEach(function (k) { out[k] = inked(value[k], ink); });
      return out;
    }
    return value;
  }

  // Colours of text, grid and ink from the stylesheet: charts follow the light or dark scheme.
  function themed(layout) {
    var text = cssVar("--chart-text", "#212529");
    var grid = cssVar("--chart-grid", "#e9ecef");
    var zero = cssVar("--chart-zero", "#adb5bd");
    var out = merge(layout, {
      font: { color: text },
      paper_bgcolor: "rgba(0,0,0,0)",
      plot_bgcolor: "rgba(0,0,0,0)",
      hoverlabel: { font: { color: text }, bgcolor: cssVar("--chart-hover", "#ffffff") }
    });
    Object.keys(out).forEach(function (k) {
      if (/^[xy]axis\d*$/.test(k)) {
        out[k] = merge({ gridcolor: grid, zerolinecolor: zero, linecolor: zero }, out[k]);
      }
    });
    if (!out.xaxis) { out.xaxis = { gridcolor: grid, zerolinecolor: zero, linecolor: zero }; }
    if (!out.yaxis) { out.yaxis = { gridcolor: grid, zerolinecolor: zero, linecolor: zero }; }
    return out;
  }

  function drawChart(el) {
    var source = document.getElementById(el.getAttribute("data-chart"));
    if (!source) { return; }
    var fig;
    try { fig = JSON.parse(source.textContent); } catch (e) { return; }
    var layout = merge({
      margin: { l: 56, r: 16, t: 36, b: 48 },
      font: { family: "system-ui, -apple-system, 'Segoe UI', 'Noto Sans TC', sans-serif", size: 12 },
      legend: { orientation: "h", y: -0.2 }
    }, fig.layout || {});
    var narrow = el.clientWidth > 0 && el.clientWidth < NARROW_PX;
    var meta = layout.meta || {};
    if (narrow && meta.narrow) { layout = merge(layout, meta.narrow); }
    layout = themed(layout);
    var data = inked(fig.data || [], cssVar("--chart-ink", INK));
    // On a phone the toolbar (modebar) sits over the title and legend: leave it off there.
    var config = { responsive: true, displaylogo: false };
    if (narrow) { config.displayModeBar = false; }
    window.Plotly.react(el, data, layout, config);
    el.setAttribute("data-drawn", "1");
    el.setAttribute("data-layout", narrow ? "narrow" : "wide");
  }

  function drawCharts(root) {
    if (!window.Plotly) { return; }
    root.querySelectorAll("[data-chart]").forEach(drawChart);
  }

  // Redraw a chart when it crosses the narrow width (a phone turned, a window resized).
  var resizeTimer = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(function () {
      if (!window.Plotly) { return; }
      document.querySelectorAll("[data-chart][data-drawn]").forEach(function (el) {
        var narrow = el.clientWidth > 0 && el.clientWidth < NARROW_PX;
        if ((el.getAttribute("data-layout") === "narrow") !== narrow) { drawChart(el); }
      });
    }, 150);
  });
  // The system switches between light and dark: draw the charts in the new colours.
  if (window.matchMedia) {
    var scheme = window.matchMedia("(prefers-color-scheme: dark)");
    var redraw = function () { drawCharts(document); };
    if (scheme.addEventListener) { scheme.addEventListener("change", redraw); }
  }

  function loadPlotlyThenDraw(root) {
    if (!root.querySelector("[data-chart]")) { return; }
    if (window.Plotly) { drawCharts(root); return; }
    var src = document.body.getAttribute("data-plotly-src");
    if (!src) { return; }
    var existing = document.querySelector("script[data-plotly-loader]");
    if (existing) { existing.addEventListener("load", function () { drawCharts(document); }); return; }
    var s = document.createElement("script");
    s.src = src;
    s.setAttribute("data-plotly-loader", "1");
    s.addEventListener("load", function () { drawCharts(document); });
    document.head.appendChild(s);
  }

  function wire(root) {
    root.querySelectorAll("select[data-autosubmit]").forEach(function (sel) {
      sel.addEventListener("change", function () { sel.form.submit(); });
    });
    root.querySelectorAll("[data-confirm]").forEach(function (el) {
      el.addEventListener("submit", function (ev) {
        if (!window.confirm(el.getAttribute("data-confirm"))) { ev.preventDefault(); }
      });
    });
    root.querySelectorAll("[data-copy]").forEach(function (btn) {
      btn.addEventListener("click", function () {
        var source = document.getElementById(btn.getAttribute("data-copy"));
        if (!source) { return; }
        var done = function () {
          var label = btn.textContent;
          btn.textContent = btn.getAttribute("data-copied") || label;
          window.setTimeout(function () { btn.textContent = label; }, 1500);
        };
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(source.value).then(done, function () {});
        } else {
          source.select();
          try { document.execCommand("copy"); done(); } catch (e) { /* the text stays selected */ }
        }
      });
    });
    root.querySelectorAll("[data-print]").forEach(function (btn) {
      btn.addEventListener("click", function () { window.print(); });
    });
    keyboardScroll(root);
    loadPlotlyThenDraw(root);
  }

  // A table wider than its box scrolls sideways: that box is then reachable from the keyboard
  // (the arrow keys scroll it), and only then, so a table that fits is no extra tab stop.
  function keyboardScroll(root) {
    (root.querySelectorAll ? root : document).querySelectorAll(".table-wrap").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1 && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
      }
    });
  }
  window.addEventListener("resize", function () { keyboardScroll(document); });

  // htmx 2 swaps only 2xx answers by default. Offerdesk answers bad input with the form and its
  // errors: 400 (invalid), 409 (changed elsewhere), 422 (cannot be used). Swap those too, so
  // the errors appear where the form is; other errors still swap nothing.
  if (window.htmx) {
    window.htmx.config.responseHandling = [
      { code: "204", swap: false },
      { code: "[23]..", swap: true },
      { code: "^(400|409|422)$", swap: true, error: false },
      { code: "[45]..", swap: false, error: true },
      { code: "...", swap: false }
    ];
  }

  document.addEventListener("DOMContentLoaded", function () { wire(document); });
  document.addEventListener("htmx:afterSettle", function (ev) { wire(ev.target || document); drawCharts(document); });
})();

/* Offerdesk front end: draws plotly figures handed over with json_script, no inline scripts. */
(function () {
  "use strict";

  function drawCharts(root) {
    if (!window.Plotly) { return; }
    root.querySelectorAll("[data-chart]").forEach(function (el) {
      var source = document.getElementById(el.getAttribute("data-chart"));
      if (!source) { return; }
      var fig;
      try { fig = JSON.parse(source.textContent); } catch (e) { return; }
      var layout = Object.assign({
        margin: { l: 56, r: 16, t: 36, b: 48 },
        font: { family: "system-ui, -apple-system, 'Segoe UI', 'Noto Sans TC', sans-serif", size: 12 },
        paper_bgcolor: "rgba(0,0,0,0)", plot_bgcolor: "rgba(0,0,0,0)",
        legend: { orientation: "h", y: -0.2 }
      }, fig.layout || {});
      window.Plotly.react(el, fig.data || [], layout, { responsive: true, displaylogo: false });
      el.setAttribute("data-drawn", "1");
    });
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
    loadPlotlyThenDraw(root);
  }

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

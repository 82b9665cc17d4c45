// Build Offerdesk's plotly.js: the core (which holds scatter) and the traces of traces.json.
//
// Run from the repository: `make plotly` (npm ci here, then this script). It writes
// static/vendor/plotly-<version>-offerdesk.min.js and removes any other version's file. The
// version is the plotly.js pinned in package.json, which must be the one the Python plotly
// package bundles (tests/config/test_static_plotly.py checks both, and the traces).
import { readFileSync, readdirSync, unlinkSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const vendor = join(here, "..", "..", "static", "vendor");
const traces = JSON.parse(readFileSync(join(here, "traces.json"), "utf8"));
const version = JSON.parse(
  readFileSync(join(here, "node_modules", "plotly.js", "package.json"), "utf8"),
).version;

// The core registers scatter itself; every other trace is one `lib/<name>` module.
const modules = traces.filter((t) => t !== "scatter").map((t) => `require("plotly.js/lib/${t}")`);
const entry = [
  "var Plotly = require(\"plotly.js/lib/core\");",
  `Plotly.register([${modules.join(", ")}]);`,
  "module.exports = Plotly;",
].join("\n");

const banner = [
  "/**",
  `* plotly.js v${version} (Offerdesk partial bundle: ${traces.join(", ")})`,
  "* Copyright 2012-2026, Plotly, Inc. All rights reserved. Licensed under the MIT license.",
  "* Built by tools/plotly (make plotly) from the npm package plotly.js with esbuild.",
  "*/",
].join("\n");

const result = await build({
  stdin: { contents: entry, resolveDir: here, loader: "js" },
  bundle: true,
  minify: true,
  format: "iife",
  globalName: "Plotly",
  target: "es2016",
  // As plotly.js's own build (esbuild-config.js); map subplots' CSS is not used here.
  define: { global: "window", "define.amd": "false", "process.env.NODE_DEBUG": "false" },
  loader: { ".css": "empty" },
  legalComments: "none",
  banner: { js: banner },
  write: false,
  logLevel: "warning",
});

const name = `plotly-${version}-offerdesk.min.js`;
for (const old of readdirSync(vendor)) {
  if (old.startsWith("plotly-") && old !== name) unlinkSync(join(vendor, old));
}
writeFileSync(join(vendor, name), result.outputFiles[0].text);
console.log(`wrote static/vendor/${name} (${result.outputFiles[0].contents.length} bytes)`);

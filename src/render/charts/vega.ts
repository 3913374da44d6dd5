import { createRequire } from "node:module";
import type * as VegaModule from "vega";

// Vega as its one-file build (vega/build/vega.min.js, shipped in the vega package: the same
// version and code as its ES module entry), loaded once per thread. The ES module entry loads
// the 40 or so vega-* and d3-* packages it is made of as modules of their own, and in the chart
// worker that held 8 MB more of the thread's memory than the one file (docs/performance.md,
// the charts' fifth stop); the worker pays it again every time it starts after being idle.

/** The Vega API (the types are the `vega` package's own). */
export const vega = createRequire(import.meta.url)("vega/build/vega.min.js") as typeof VegaModule;

import type { Chart } from "../render/charts/trend-chart.js";

// A fire's images, pulled by each destination while it builds what it sends (as Grafana's
// receivers pull theirs through an images.Provider): the recorded notification never carries
// them, so a retry draws them again and the ledger keeps no PNG.

/** What hands a destination the fire's charts: drawn once on first ask; none when drawing fails. */
export interface FireImages {
  /** The fire's charts, in the order they are shown; empty when there are none to draw. */
  fireCharts(): Promise<readonly Chart[]>;
}

/**
 * Whether a destination's message opens the fire (a reply in its thread, or a mail that
 * follows its first, does not): only such a message carries the fire's charts.
 */
export function opensFire(message: { threadKey?: string | null } | null): boolean {
  return message !== null && !message.threadKey;
}

/** The note shown instead of prior figures when the API's lookback does not reach the prior period. */
export function lookbackNote(earliestDate: string): string {
  return `prior period not available: insights go back to ${earliestDate}`;
}

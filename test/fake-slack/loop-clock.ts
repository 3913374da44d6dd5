/**
 * How early a request the fake reads now may have arrived. The fake dates a call when its event
 * loop gets to it; stalled (its process descheduled, a collection, the emulator beside it busy
 * on a machine at load 12-18), it reads late what came early: seen in the scale bench, a post
 * read 142 ms after the 429 it was counted against, with no beat between. A beat every `everyMs`
 * says when the loop last went round; a request read now came after the last beat, or after the
 * one before it when the last came late (the stall ended just before it).
 */
export interface LoopClock {
  /** The loop went round now (the beat's timer). */
  beat(): void;
  /** The earliest a request read now can have arrived. */
  earliest(): number;
}

export function createLoopClock(everyMs: number, now: () => number = Date.now): LoopClock {
  let previous = now();
  let last = previous;
  return {
    beat() {
      previous = last;
      last = now();
    },
    earliest() {
      return last - previous > 2 * everyMs ? previous : last;
    },
  };
}

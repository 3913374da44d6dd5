import { UsageError } from "../../errors.js";
import { createRandom, type Random } from "./seeded-random.js";

// Injected faults, for the reliability tests. A spec such as
// `"429:0.1,500:0.05,503:0.05,reset:0.02,slow:0.05,malformed:0.02,retry-after=2,slow-ms=3000"`
// gives each kind a per-request chance, drawn from a seeded source so a seed replays the same
// sequence. Kinds:
// - `429` (with `Retry-After`), `500`, `502`, `503`, `504`: that status with an error body;
// - `reset`: the socket is destroyed without an answer;
// - `slow`: the real answer, after `slow-ms` (default 30 s, past a client's timeout);
// - `malformed-json`: 200 with a truncated, non-JSON body; `malformed-shape`: 200 with valid
//   JSON of the wrong shape; `malformed`: the two alternately, JSON first;
// - `none` (queue only): an ordinary answer.
// `retry-after=N` sets the 429's header in seconds; `retry-after=date+N` sends an HTTP date N
// seconds after the emulator's clock. A queued entry may carry its own value:
// `"429:retry-after=7"`, `"429:retry-after=date+3"`, `"slow:ms=250"`.

export type FaultKind =
  | "429"
  | "500"
  | "502"
  | "503"
  | "504"
  | "reset"
  | "slow"
  | "malformed-json"
  | "malformed-shape";

/** What to do to one request. */
export interface Fault {
  kind: FaultKind;
  retryAfter: RetryAfter;
  slowMs: number;
}

export interface RetryAfter {
  seconds: number;
  asHttpDate: boolean;
}

export interface FaultSpec {
  rates: { kind: FaultKind | "malformed"; rate: number }[];
  retryAfter: RetryAfter;
  slowMs: number;
}

const KINDS = [
  "429",
  "500",
  "502",
  "503",
  "504",
  "reset",
  "slow",
  "malformed",
  "malformed-json",
  "malformed-shape",
];
const DEFAULT_SLOW_MS = 30_000;

/** Parses a `--faults` spec; an empty spec injects nothing. Throws `UsageError` naming the part that is wrong. */
export function parseFaultSpec(spec: string): FaultSpec {
  const parsed: FaultSpec = {
    rates: [],
    retryAfter: { seconds: 1, asHttpDate: false },
    slowMs: DEFAULT_SLOW_MS,
  };
  for (const part of spec
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const [name, value = ""] = part.includes("=") ? part.split("=", 2) : part.split(":", 2);
    if (part.includes("=")) {
      applyOption(parsed, name ?? "", value, part);
      continue;
    }
    const rate = Number(value);
    if (!KINDS.includes(name ?? "") || value === "" || !(rate >= 0 && rate <= 1)) {
      throw new UsageError(
        `--faults: "${part}" is not kind:rate — kinds: ${KINDS.join(", ")}; rate between 0 and 1; options retry-after=N, slow-ms=N`,
      );
    }
    parsed.rates.push({ kind: name as FaultKind | "malformed", rate });
  }
  const total = parsed.rates.reduce((sum, r) => sum + r.rate, 0);
  if (total > 1) throw new UsageError(`--faults: the rates add up to ${total}, more than 1`);
  return parsed;
}

function applyOption(spec: FaultSpec, name: string, value: string, part: string): void {
  if (name === "retry-after") spec.retryAfter = parseRetryAfter(value, part);
  else if (name === "slow-ms") spec.slowMs = wholeNumber(value, part);
  else
    throw new UsageError(`--faults: unknown option "${part}" — options: retry-after=N, slow-ms=N`);
}

function parseRetryAfter(value: string, part: string): RetryAfter {
  const asHttpDate = value.startsWith("date+");
  return { seconds: wholeNumber(asHttpDate ? value.slice(5) : value, part), asHttpDate };
}

function wholeNumber(value: string, part: string): number {
  const n = Number(value);
  if (value === "" || !Number.isInteger(n) || n < 0) {
    throw new UsageError(`--faults: "${part}" needs a whole number`);
  }
  return n;
}

/** Decides the fault of each request: queued faults first, then the spec's seeded rates. */
export class FaultPlan {
  readonly #spec: FaultSpec;
  readonly #random: Random;
  readonly #queue: (Fault | null)[] = [];
  #malformedCount = 0;

  constructor(spec: FaultSpec, seed: string) {
    this.#spec = spec;
    this.#random = createRandom(`${seed}|faults`);
  }

  /** Queues exact faults for the next requests, in order (`"none"` lets one through untouched). */
  queue(kinds: readonly string[]): void {
    const parsed = kinds.map((entry) => this.#parseQueued(entry));
    this.#queue.push(...parsed);
  }

  /** The fault for the next request, or null for an ordinary answer. */
  next(): Fault | null {
    if (this.#queue.length > 0) return this.#queue.shift() ?? null;
    if (this.#spec.rates.length === 0) return null;
    let roll = this.#random.next();
    for (const { kind, rate } of this.#spec.rates) {
      if (roll < rate) return this.#fault(kind);
      roll -= rate;
    }
    return null;
  }

  #fault(kind: FaultKind | "malformed", overrides: Partial<Fault> = {}): Fault {
    const concrete: FaultKind =
      kind === "malformed"
        ? this.#malformedCount++ % 2 === 0
          ? "malformed-json"
          : "malformed-shape"
        : kind;
    return {
      kind: concrete,
      retryAfter: this.#spec.retryAfter,
      slowMs: this.#spec.slowMs,
      ...overrides,
    };
  }

  #parseQueued(entry: string): Fault | null {
    const [kind = "", option] = entry.split(/:(.*)/s, 2);
    if (kind === "none" && option === undefined) return null;
    if (!KINDS.includes(kind)) {
      throw new UsageError(
        `queueFaults: "${entry}" is not a fault — kinds: none, ${KINDS.join(", ")}`,
      );
    }
    if (option === undefined) return this.#fault(kind as FaultKind);
    const [name, value = ""] = option.split("=", 2);
    if (kind === "429" && name === "retry-after") {
      return this.#fault(kind, { retryAfter: parseRetryAfter(value, entry) });
    }
    if (kind === "slow" && name === "ms")
      return this.#fault(kind, { slowMs: wholeNumber(value, entry) });
    throw new UsageError(
      `queueFaults: "${entry}" has an unknown option — 429:retry-after=N or slow:ms=N`,
    );
  }
}

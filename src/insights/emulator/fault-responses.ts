import type { EmulatorAnswer } from "./answer-request.js";
import type { Fault, RetryAfter } from "./fault-plan.js";

/**
 * The answer a request gets under a fault (`reset` and `slow` are handled where the socket
 * is). Statuses answer on their own; the malformed kinds spoil the real answer, which is
 * computed only then.
 */
export function answerUnderFault(
  fault: Fault,
  now: Date,
  realAnswer: () => EmulatorAnswer,
): EmulatorAnswer {
  switch (fault.kind) {
    case "429":
      return {
        status: 429,
        body: { error: "Too many requests, slow down" },
        operation: null,
        headers: { "retry-after": retryAfterHeader(fault.retryAfter, now) },
      };
    case "500":
    case "502":
    case "503":
    case "504":
      return {
        status: Number(fault.kind),
        body: { error: "Upstream trouble (injected)" },
        operation: null,
      };
    case "malformed-json":
    case "malformed-shape": {
      const answer = realAnswer();
      return { status: 200, body: malformedBody(fault.kind, answer), operation: answer.operation };
    }
    default:
      return realAnswer();
  }
}

/** The `Retry-After` value of an injected 429: seconds, or an HTTP date that far after `now`. */
function retryAfterHeader(retryAfter: RetryAfter, now: Date): string {
  if (!retryAfter.asHttpDate) return String(retryAfter.seconds);
  return new Date(now.getTime() + retryAfter.seconds * 1000).toUTCString();
}

/**
 * The body of a malformed 200. `malformed-json` is a JSON text cut short (a proxy dropping the
 * connection mid-body). `malformed-shape` is valid JSON with one field wrong, as a regressed
 * upstream would send: for insights `tests.overall_data.flaky_tests_count` becomes a string;
 * for the project list `projects` becomes an object; for anything else (an error answer), an
 * object without any documented field.
 */
function malformedBody(kind: "malformed-json" | "malformed-shape", answer: EmulatorAnswer): string {
  const text = JSON.stringify(answer.body);
  if (kind === "malformed-json") return text.slice(0, Math.max(1, Math.floor(text.length / 2)));
  const body = structuredClone(answer.body) as Record<string, unknown>;
  if (answer.operation === "insights") {
    const tests = body.tests as { overall_data: Record<string, unknown> };
    tests.overall_data.flaky_tests_count = String(tests.overall_data.flaky_tests_count);
    return JSON.stringify(body);
  }
  if (answer.operation === "projects")
    return JSON.stringify({ ...body, projects: { items: body.projects } });
  return JSON.stringify({ unexpected: true });
}

/**
 * The few typed errors of insights-reporter. Each carries a stable `code`, a message that
 * says what is wrong and how to fix it, and context for logs. None of them ever holds a
 * secret: callers pass paths and statuses, never keys, tokens or URLs with credentials.
 * Only the CLI maps them to exit codes (`exitCode`).
 */
export type ErrorCode =
  | "CONFIG_INVALID"
  | "USAGE"
  | "BASE_URL"
  | "AUTH"
  | "LOOKBACK"
  | "INVALID_RANGE"
  | "UNKNOWN_TIMEZONE"
  | "PROJECT_NOT_FOUND"
  | "UPSTREAM"
  | "MALFORMED_RESPONSE"
  | "SLACK"
  | "EMAIL"
  | "WEBHOOK"
  | "LEDGER_LOCKED"
  | "LEDGER"
  | "LEDGER_DISK";

export abstract class ReporterError extends Error {
  abstract readonly code: ErrorCode;
  /** 2 for bad usage or config, 1 for a delivery or upstream failure (docs/commands.md). */
  readonly exitCode: 1 | 2 = 1;
  readonly context: Readonly<Record<string, unknown>>;

  constructor(message: string, context: Record<string, unknown> = {}, options?: ErrorOptions) {
    super(message, options);
    this.name = new.target.name;
    this.context = context;
  }
}

/** One problem in a config file, with the path of the offending value. */
export interface ConfigIssue {
  path: string;
  message: string;
  /** The path with names beside positions, `teams[1] (payments).schedule`, as messages show it. */
  label?: string;
}

export class ConfigError extends ReporterError {
  readonly code = "CONFIG_INVALID";
  override readonly exitCode = 2;
  readonly issues: readonly ConfigIssue[];

  constructor(source: string, issues: readonly ConfigIssue[]) {
    const at = (i: ConfigIssue) => {
      const where = i.label ?? i.path;
      return `${where ? `${where}: ` : ""}${i.message}`;
    };
    // One problem reads as one line; several are listed under a count.
    const [only] = issues;
    super(
      issues.length === 1 && only
        ? `${source}: ${at(only)}`
        : `${source} has ${issues.length} problems:\n${issues.map((i) => `  ${at(i)}`).join("\n")}`,
      { source },
    );
    this.issues = issues;
  }
}

export class UsageError extends ReporterError {
  readonly code = "USAGE";
  override readonly exitCode = 2;
}

/** INSIGHTS_API_URL is not a usable base URL (wrong path, placeholder subdomain, plain http). */
export class BaseUrlError extends ReporterError {
  readonly code = "BASE_URL";
  override readonly exitCode = 2;
}

/** 401 from the insights API. Stops the whole run: no project can be fetched with this key. */
export class AuthError extends ReporterError {
  readonly code = "AUTH";
  constructor(context: Record<string, unknown> = {}) {
    super(
      "the API key was refused (missing, revoked or expired) — check INSIGHTS_API_KEY and that INSIGHTS_API_URL names your own workspace subdomain",
      context,
    );
  }
}

/** 400: the start date is older than the API's 3-month lookback. */
export class LookbackError extends ReporterError {
  readonly code = "LOOKBACK";
  /** The earliest start date the API allows (ISO date), as the API stated it. */
  readonly earliestDate: string;
  constructor(earliestDate: string, context: Record<string, unknown> = {}) {
    super(
      `insights are available only for the most recent 3 months — use a date range starting on or after ${earliestDate}`,
      context,
    );
    this.earliestDate = earliestDate;
  }
}

export class InvalidRangeError extends ReporterError {
  readonly code = "INVALID_RANGE";
}

export class UnknownTimezoneError extends ReporterError {
  readonly code = "UNKNOWN_TIMEZONE";
}

export class ProjectNotFoundError extends ReporterError {
  readonly code = "PROJECT_NOT_FOUND";
  readonly projectId: string;
  constructor(projectId: string, context: Record<string, unknown> = {}) {
    super(
      `project "${projectId}" was not found in this workspace — check the project id in the config (\`insights-reporter projects\` lists them) and that the key belongs to the right workspace`,
      { projectId, ...context },
    );
    this.projectId = projectId;
  }
}

/** 5xx after the last retry, connection resets, timeouts. */
export class UpstreamError extends ReporterError {
  readonly code = "UPSTREAM";
}

/** A body that is not JSON, or not of the documented shape. */
export class MalformedResponseError extends ReporterError {
  readonly code = "MALFORMED_RESPONSE";
}

/**
 * What a failed send knows of whether it landed, in words the delivery loop reads for every
 * kind: whether it may have been delivered all the same (anything but the destination's own
 * refusal). The parts that did land are recorded as they land (`DeliveryProgress`).
 */
export interface LandingVerdict {
  readonly mayHaveLanded: boolean;
}

/** Whether an error carries its sender's landing verdict. */
export function hasLandingVerdict(error: unknown): error is LandingVerdict {
  return typeof error === "object" && error !== null && "mayHaveLanded" in error;
}

/**
 * The sender's verdict on a failure (Alertmanager's `Notify → retry bool`): false when trying
 * again cannot help until a person fixes something (a refused token, a missing channel, our own
 * malformed message), so the delivery is given up at once instead of retried for hours.
 */
export interface RetryVerdict {
  retry: boolean;
}

/** A Slack destination failed; `slackError` is Slack's own error string when there is one. */
export class SlackDeliveryError extends ReporterError implements RetryVerdict, LandingVerdict {
  readonly code = "SLACK";
  readonly slackError: string | null;
  readonly retry: boolean;
  constructor(
    message: string,
    slackError: string | null,
    context: Record<string, unknown> = {},
    verdict: RetryVerdict = { retry: true },
  ) {
    super(message, { slackError, ...context });
    this.slackError = slackError;
    this.retry = verdict.retry;
  }

  /** Slack answers with an error code only for a message it did not post. */
  get mayHaveLanded(): boolean {
    return this.slackError === null;
  }
}

export class EmailDeliveryError extends ReporterError implements RetryVerdict {
  readonly code = "EMAIL";
  readonly retry: boolean;
  constructor(
    message: string,
    context: Record<string, unknown> = {},
    verdict: RetryVerdict = { retry: true },
  ) {
    super(message, context);
    this.retry = verdict.retry;
  }
}

/**
 * A POST to a URL destination failed: a Teams workflow or a signed webhook. `status` is the
 * HTTP status when there was an answer. The message names the destination by its id, never by
 * its URL (the URL carries a token).
 */
export class WebhookDeliveryError extends ReporterError implements RetryVerdict {
  readonly code = "WEBHOOK";
  readonly status: number | null;
  readonly retry: boolean;
  constructor(
    message: string,
    status: number | null,
    context: Record<string, unknown> = {},
    verdict: RetryVerdict = { retry: true },
  ) {
    super(message, { status, ...context });
    this.status = status;
    this.retry = verdict.retry;
  }
}

/** Whether a failed send is worth another attempt: the sender's verdict, else yes. */
export function worthRetrying(error: unknown): boolean {
  return (
    !(
      error instanceof SlackDeliveryError ||
      error instanceof EmailDeliveryError ||
      error instanceof WebhookDeliveryError
    ) || error.retry
  );
}

export class LedgerLockedError extends ReporterError {
  readonly code = "LEDGER_LOCKED";
  override readonly exitCode = 2;
}

/**
 * The ledger file cannot be used as it is: a directory, not a database, damaged, another
 * program's schema or a newer one, or not writable. Exit 2, like a bad state.path.
 */
export class LedgerError extends ReporterError {
  readonly code = "LEDGER";
  override readonly exitCode = 2;
}

/**
 * The disk that holds the ledger failed a read or a write: full, or an I/O error. Exit 1, as a
 * failed delivery: the config is right, and the same run succeeds once the disk has room.
 */
export class LedgerDiskError extends ReporterError {
  readonly code = "LEDGER_DISK";
}

/** The errors a single project may fail with without sinking the team's digest. */
export function isProjectScopedError(error: unknown): error is ReporterError {
  return (
    error instanceof ProjectNotFoundError ||
    error instanceof UpstreamError ||
    error instanceof MalformedResponseError ||
    error instanceof LookbackError ||
    error instanceof InvalidRangeError
  );
}

import type { IncomingMessage } from "node:http";

/** One request as the fake sees it, whatever encoding the client chose. */
export interface SlackRequest {
  /** Query, form, JSON or multipart fields; JSON-string fields are left as strings. */
  params: Record<string, unknown>;
  /** From `Authorization: Bearer`, else a `token` field, else null. */
  token: string | null;
  /** The first file part of a multipart body, or a raw (non-form) body. */
  file: { bytes: Buffer; filename: string | null } | null;
}

/** Thrown for a body the fake cannot decode; answered like Slack does. */
export class UnreadableRequest extends Error {
  constructor(readonly slackError: "invalid_json" | "invalid_form_data") {
    super(slackError);
  }
}

/** Reads and decodes a Web API request: urlencoded, JSON or multipart, plus the query string. */
export async function readSlackRequest(req: IncomingMessage, url: URL): Promise<SlackRequest> {
  const body = await readBody(req);
  const contentType = req.headers["content-type"] ?? "";
  const type = contentType.toLowerCase();
  const params: Record<string, unknown> = Object.fromEntries(url.searchParams);
  let file: SlackRequest["file"] = null;

  if (type.startsWith("application/json")) {
    Object.assign(params, parseJsonObject(body));
  } else if (type.startsWith("application/x-www-form-urlencoded")) {
    Object.assign(params, Object.fromEntries(new URLSearchParams(body.toString("utf8"))));
  } else if (type.startsWith("multipart/form-data")) {
    // The boundary is case-sensitive, so the header goes through untouched.
    const form = await new Request("http://fake-slack.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body,
    })
      .formData()
      .catch(() => {
        throw new UnreadableRequest("invalid_form_data");
      });
    for (const [name, value] of form) {
      if (typeof value === "string") params[name] = value;
      else file ??= { bytes: Buffer.from(await value.arrayBuffer()), filename: value.name || null };
    }
  } else if (body.length > 0) {
    file = { bytes: body, filename: null };
  }

  const auth = req.headers.authorization;
  const bearer = auth?.startsWith("Bearer ") ? auth.slice("Bearer ".length) : null;
  const token = bearer ?? (typeof params.token === "string" ? params.token : null);
  delete params.token;
  return { params, token, file };
}

function parseJsonObject(body: Buffer): Record<string, unknown> {
  if (body.length === 0) return {};
  try {
    const value: unknown = JSON.parse(body.toString("utf8"));
    if (value && typeof value === "object" && !Array.isArray(value)) {
      return value as Record<string, unknown>;
    }
  } catch {
    // fall through to the refusal below
  }
  throw new UnreadableRequest("invalid_json");
}

async function readBody(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A JSON-string field (form encoding) or an already-parsed one (JSON encoding). */
export function jsonField(value: unknown): { ok: true; value: unknown } | { ok: false } {
  if (typeof value !== "string") return { ok: true, value };
  try {
    return { ok: true, value: JSON.parse(value) };
  } catch {
    return { ok: false };
  }
}

/** A boolean flag as Slack reads it: `true`, `1` or a JSON true. */
export function flag(value: unknown): boolean {
  return value === true || value === "true" || value === "1" || value === 1;
}

import * as z from "zod";
import { Secret } from "../../secret.js";
import { secretText } from "../../secret-text.js";
import { configPart } from "../config-part.js";

// Email's part of the config: the SMTP settings every email destination shares (`email:`),
// and what a digest's or an alert's `email:` says. config/schema.ts composes these fragments;
// the SMTP URL is marked secret here, so the derived secret paths include it.

const DEFAULT_FROM = "Test insights <insights@localhost>";
const DEFAULT_MAX_BYTES = 10_000_000;

/** `email:` at the top of the config file. */
const global = z
  .strictObject({
    smtp_url: secretText
      .optional()
      .describe(
        "smtp://user:pass@host:587 or smtps://…; defaults to ${SMTP_URL}. Needed by email destinations.",
      ),
    from: z.string().default(DEFAULT_FROM).describe("Sender of every mail."),
    max_bytes: z
      .number()
      .int()
      .min(10_000)
      .default(DEFAULT_MAX_BYTES)
      .describe("Above this size a mail goes without its attachment."),
  })
  .default({ from: DEFAULT_FROM, max_bytes: DEFAULT_MAX_BYTES })
  .describe("SMTP settings, shared by every email destination.");

const digest = z
  .strictObject({
    to: z.array(z.string().min(3)).min(1).describe("Recipients."),
    attach_xlsx: z.boolean().default(true).describe("Attach the workbook."),
  })
  .describe("Email the digest to these recipients.");

const alert = z
  .strictObject({ to: z.array(z.string().min(3)).min(1).describe("Recipients.") })
  .describe("Email alert changes to these recipients.");

export const emailSchema = { global, digest, alert };

/** The SMTP settings, resolved. */
export interface EmailGlobal {
  smtpUrl: Secret | null;
  from: string;
  maxBytes: number;
}

/** A digest's email destination. */
export interface EmailDigestTarget {
  to: string[];
  attachXlsx: boolean;
}

/** An alert's email destination. */
export interface EmailAlertTarget {
  to: string[];
}

/** The config as written → camelCase, the SMTP URL wrapped. */
export const resolveEmail = {
  global: (input: z.output<typeof global>): EmailGlobal => ({
    smtpUrl: input.smtp_url === undefined ? null : new Secret(input.smtp_url),
    from: input.from,
    maxBytes: input.max_bytes,
  }),
  digest: (input: z.output<typeof digest>): EmailDigestTarget => ({
    to: input.to,
    attachXlsx: input.attach_xlsx,
  }),
  alert: (input: z.output<typeof alert>): EmailAlertTarget => ({ to: input.to }),
};

/** What the config needs of email (see DestinationConfigPart). */
export const EMAIL_CONFIG = configPart("email", emailSchema, resolveEmail, {
  envDefaults: { smtp_url: "SMTP_URL" },
  credential: { key: "smtp_url", variable: "SMTP_URL" },
});

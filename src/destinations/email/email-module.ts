import type { EmailMessage } from "../../messages.js";
import type { AlertMessageInput } from "../../render/alert/alert-view.js";
import type { DestinationModule } from "../destination-module.js";
import type { EmailDestination } from "./email-clients.js";
import {
  EMAIL_CONFIG,
  type EmailAlertTarget,
  type EmailDigestTarget,
  type EmailGlobal,
  type emailSchema,
} from "./email-config.js";
import { emailDestinationId } from "./email-id.js";
import { type EmailAlertMessage, emailAlertJob, emailDigestJob } from "./email-jobs.js";
import { messageIdForKey } from "./email-message-id.js";
import { emailOutbox } from "./email-outbox.js";
import { renderAlertEmail } from "./messages/email-alert.js";
import { emailCharts } from "./messages/email-charts.js";
import { renderDigestEmail } from "./messages/email-digest.js";
import { renderIncidentEmail } from "./messages/email-incident.js";
import { smtpOnFirstUse } from "./smtp-on-first-use.js";

/** The types email works with (see DestinationShape). */
export interface EmailShape {
  schema: typeof emailSchema;
  global: EmailGlobal;
  digestTarget: EmailDigestTarget;
  alertTarget: EmailAlertTarget;
  address: { to: readonly string[] };
  digestMessage: EmailMessage;
  alertMessage: EmailAlertMessage;
  clients: { digest: EmailDestination; alert: EmailDestination };
}

/** Email over SMTP: one mail per digest or alert, its Message-ID taken from the slot's key. */
export const EMAIL: DestinationModule<"email", EmailShape> = {
  ...EMAIL_CONFIG,
  id: ({ to }) => emailDestinationId(to),
  clients: smtpOnFirstUse,
  outbox: (files, global) => {
    const email = emailOutbox(files, global);
    return { digest: email, alert: email };
  },
  renderDigest: (target, { report, key, owners, workbook, charts }) => {
    const attached = target.attachXlsx && workbook ? workbook : null;
    const mailCharts = emailCharts(charts);
    return {
      ...renderDigestEmail(report, {
        key,
        workbook: attached ? attached.filename : null,
        owners,
        charts: mailCharts.images,
      }),
      to: target.to,
      attachments: [...mailCharts.attachments, ...(attached ? [attached] : [])],
      messageId: messageIdForKey(key),
    };
  },
  renderAlert: ({ to }, { message, now, threadKey }) => ({
    to: [...to],
    ...renderAlertEmail(message, now),
    threadKey,
    ...regressedFrom(message),
  }),
  // A resolution's mail follows the incident's, so mail clients thread them.
  renderIncident: ({ to }, input) => ({
    to: [...to],
    ...renderIncidentEmail(input),
    threadKey: input.resolved ? input.incidentKey : null,
  }),
  digestJob: emailDigestJob,
  alertJob: (key, message, client, deps) => emailAlertJob(key, message, client, deps),
};

/** The earlier fires the evaluation's regressed fires name, each once; nothing when none. */
function regressedFrom(message: AlertMessageInput): { regressedFrom?: string[] } {
  const keys = [
    ...new Set(
      message.transitions.flatMap((t) =>
        t.kind === "fired" && t.regressed ? [t.regressed.fireKey] : [],
      ),
    ),
  ];
  return keys.length > 0 ? { regressedFrom: keys } : {};
}

import {
  type FakeChannel,
  type FakeSlackState,
  type FakeUpload,
  fail,
  type Handler,
  ok,
  type Reply,
  writableChannel,
} from "./fake-slack-state.js";
import { jsonField, type SlackRequest } from "./read-slack-request.js";

/** The three steps of files.uploadV2: get an upload URL, send the bytes there, complete. */

export const getUploadUrl: Handler = ({ params }, state) => {
  const length = Number(params.length);
  if (typeof params.filename !== "string" || !params.filename || !Number.isInteger(length)) {
    return fail("invalid_arguments");
  }
  const fileId = state.nextFileId();
  state.pendingFiles.set(fileId, { filename: params.filename, length, bytes: null });
  return ok({ upload_url: `${state.origin}/upload/${fileId}`, file_id: fileId });
};

/** The upload URL: takes the raw bytes or the multipart file part the client sends. */
export function receiveUpload(fileId: string, request: SlackRequest, state: FakeSlackState): Reply {
  const pending = state.pendingFiles.get(fileId);
  if (!pending || !request.file) return { status: 404, body: "Not Found" };
  pending.bytes = request.file.bytes;
  return { body: `OK - ${request.file.bytes.length}` };
}

export const completeUpload: Handler = ({ params }, state) => {
  const files = jsonField(params.files);
  if (!files.ok || !Array.isArray(files.value) || files.value.length === 0) {
    return fail("invalid_arguments");
  }
  let channel: FakeChannel | null = null;
  if (params.channel_id !== undefined) {
    const found = writableChannel(state, params.channel_id);
    if ("body" in found) return found;
    channel = found;
  }
  const entries = files.value as Array<{ id?: unknown; title?: unknown }>;
  // Shared into a channel, the files come as one message there (in the thread of thread_ts).
  const ts = channel ? state.nextTs() : null;
  const done: FakeUpload[] = [];
  for (const entry of entries) {
    const fileId = String(entry.id);
    const pending = state.pendingFiles.get(fileId);
    if (!pending?.bytes) return fail("file_not_found");
    done.push({
      fileId,
      channel: channel?.id ?? null,
      thread_ts: typeof params.thread_ts === "string" && params.thread_ts ? params.thread_ts : null,
      filename: pending.filename,
      title: typeof entry.title === "string" ? entry.title : null,
      bytes: pending.bytes,
      ts,
    });
  }
  for (const upload of done) state.pendingFiles.delete(upload.fileId);
  state.uploads.push(...done);
  return ok({ files: done.map((u) => ({ id: u.fileId, name: u.filename, title: u.title })) });
};

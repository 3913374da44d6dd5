import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createOutboxFiles } from "../../src/deliver/outbox.js";

describe("the outbox's files", () => {
  let root = "";
  afterEach(async () => {
    if (root) await rm(root, { recursive: true, force: true });
  });

  it("makes its folder when a write finds it missing, also after it was removed", async () => {
    root = await mkdtemp(join(tmpdir(), "outbox-files-"));
    const dir = join(root, "not", "yet");
    const files = createOutboxFiles(dir);
    const first = await files.save("a.slack.json", "one\n");
    expect(await readFile(first, "utf8")).toBe("one\n");
    await rm(join(root, "not"), { recursive: true });
    const second = await files.save("b/c.slack.json", "two\n");
    expect(second).toBe(join(dir, "b_c.slack.json"));
    expect(await readFile(second, "utf8")).toBe("two\n");
    expect(files.written).toEqual([first, second]);
  });

  it("passes on an error other than a missing folder", async () => {
    root = await mkdtemp(join(tmpdir(), "outbox-files-"));
    const files = createOutboxFiles(root);
    // The outbox folder itself as the file's name: a directory cannot be written as a file.
    await expect(files.save(".", "x")).rejects.toMatchObject({ code: "EISDIR" });
  });
});

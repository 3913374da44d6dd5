import { describe, expect, it } from "vitest";
import { createSemaphore } from "../../src/insights/semaphore.js";

/** A task that records its start and ends when `finish(name)` is called. */
function tasks() {
  const started: string[] = [];
  const finishers = new Map<string, () => void>();
  const task = (name: string) => () => {
    started.push(name);
    return new Promise<void>((resolve) => finishers.set(name, resolve));
  };
  const finish = async (name: string) => {
    finishers.get(name)?.();
    // Let the released slot pass to the next waiter and that task start.
    for (let i = 0; i < 5; i++) await Promise.resolve();
  };
  return { started, task, finish };
}

describe("the client's semaphore", () => {
  it("runs at most `limit` tasks at once, the rest in arrival order", async () => {
    const semaphore = createSemaphore(2);
    const { started, task, finish } = tasks();
    for (const name of ["a", "b", "c", "d"]) void semaphore.run(task(name));
    expect(started).toEqual(["a", "b"]);
    await finish("a");
    expect(started).toEqual(["a", "b", "c"]);
    await finish("b");
    expect(started).toEqual(["a", "b", "c", "d"]);
  });

  it("starts an urgent task before every task waiting, urgent ones in their own order", async () => {
    const semaphore = createSemaphore(1);
    const { started, task, finish } = tasks();
    void semaphore.run(task("running"));
    void semaphore.run(task("waiting 1"));
    void semaphore.run(task("waiting 2"));
    void semaphore.run(task("list page 1"), { urgent: true });
    void semaphore.run(task("list page 2"), { urgent: true });
    for (const name of ["running", "list page 1", "list page 2", "waiting 1"]) await finish(name);
    expect(started).toEqual(["running", "list page 1", "list page 2", "waiting 1", "waiting 2"]);
  });
});

import { expect, it } from "vitest";
import { forEachConcurrently } from "./forEachConcurrently.js";

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

it("runs every item, at most `limit` at a time, starting them in order", async () => {
  let running = 0;
  let most = 0;
  const started: number[] = [];
  await forEachConcurrently([1, 2, 3, 4, 5, 6, 7], 3, async (item) => {
    started.push(item);
    running += 1;
    most = Math.max(most, running);
    await tick();
    running -= 1;
  });
  expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
  expect(most).toBe(3);
});

it("starts nothing new after a failure, waits for what runs, then throws the first failure", async () => {
  const finished: number[] = [];
  const outcome = forEachConcurrently([1, 2, 3, 4, 5], 2, async (item) => {
    if (item === 1) throw new Error("first");
    await tick();
    if (item === 2) {
      finished.push(item);
      throw new Error("second");
    }
    finished.push(item);
  });
  await expect(outcome).rejects.toThrow("first");
  expect(finished).toEqual([2]);
});

it("does nothing for no items", async () => {
  await forEachConcurrently([], 4, async () => expect.unreachable());
});

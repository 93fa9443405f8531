import { UnrecoverableError } from "bullmq";
import { describe, expect, it } from "vitest";
import { InvalidInputError, TransientError } from "../src/domain/errors.js";
import { unrecoverableOnFinalErrors } from "./unrecoverableOnFinalErrors.js";

const job = { id: "1", name: "t", data: {} };
const failingWith = (error: unknown) =>
  unrecoverableOnFinalErrors(async () => {
    throw error;
  });

describe("unrecoverableOnFinalErrors", () => {
  it("fails a job at once on a domain error retrying cannot cure", async () => {
    const final = new InvalidInputError("INVALID_INPUT", "request is malformed");
    const thrown = await failingWith(final)(job).catch((error: unknown) => error);
    expect(thrown).toBeInstanceOf(UnrecoverableError);
    expect(thrown).toMatchObject({ message: "INVALID_INPUT: request is malformed", cause: final });
  });

  it("leaves retryable domain errors and foreign errors to the job's retries", async () => {
    const transient = new TransientError("SERVICE_UNAVAILABLE", "database restarting");
    await expect(failingWith(transient)(job)).rejects.toBe(transient);
    const foreign = new Error("socket hang up");
    await expect(failingWith(foreign)(job)).rejects.toBe(foreign);
    await expect(unrecoverableOnFinalErrors(async () => 42)(job)).resolves.toBe(42);
  });
});

import { UnrecoverableError } from "bullmq";
import { isCrossfillError } from "../src/domain/errors.js";

export type JobProcessor<T> = (job: { id?: string; name: string; data: T }) => Promise<unknown>;

/**
 * The edge between domain errors and BullMQ: a domain error that retrying cannot cure (`retryable: false`) fails the
 * job at once as BullMQ's UnrecoverableError, keeping its message and the error as `cause`; anything else is thrown
 * as is and retried by the job's attempts and backoff.
 */
export function unrecoverableOnFinalErrors<T>(processor: JobProcessor<T>): JobProcessor<T> {
  return async (job) => {
    try {
      return await processor(job);
    } catch (error) {
      if (isCrossfillError(error) && !error.retryable) {
        throw Object.assign(new UnrecoverableError(`${error.errorCode}: ${error.message}`), { cause: error });
      }
      throw error;
    }
  };
}

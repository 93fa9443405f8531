import pg from "pg";

/**
 * The client class of BullMQ's Postgres pools. pg-pool listens for errors only on idle clients, and BullMQ
 * adds none to the ones it has checked out, so a connection Postgres ends between two statements of a
 * BullMQ transaction (57P01, then ECONNRESET) was an uncaught exception. Such errors go to onError; idle
 * ones are left to the pool, which BullMQ already forwards.
 */
export function clientReportingErrors(onError: (error: Error) => void): typeof pg.Client {
  return class extends pg.Client {
    constructor(config?: string | pg.ClientConfig) {
      super(config);
      this.on("error", (error) => {
        if (this.listenerCount("error") === 1) onError(error);
      });
    }
  };
}

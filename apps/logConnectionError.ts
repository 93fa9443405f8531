import type { Logger } from "pino";

/**
 * Logs a dropped database or queue connection on one line (pg's error object carries the whole client); at debug
 * level while `stopping` says the process is shutting down, when a signalled database ends them all.
 */
export function logConnectionError(logger: Logger, stopping: () => boolean = () => false) {
  return (error: Error & { code?: string }, source = "postgres pool") => {
    const fields = { source, code: error.code, reason: error.message };
    if (stopping()) logger.debug(fields, "connection ended during shutdown");
    else logger.warn(fields, "connection ended");
  };
}

/** What starting a role returns: stops it and resolves once everything it started has stopped. */
export type Shutdown = () => Promise<void>;

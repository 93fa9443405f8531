/**
 * Runs `task` one at a time however often it is asked for: a call while it runs asks for one more run after it
 * (all such calls share that run), so every call is answered by a run that started after the call was made.
 */
export function coalesceRuns<T>(task: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | undefined;
  let next: Promise<T> | undefined;
  const start = (): Promise<T> => {
    running = task().finally(() => {
      running = undefined;
    });
    return running;
  };
  return () => {
    if (!running) return start();
    next ??= running
      .then(
        () => undefined,
        () => undefined,
      )
      .then(() => {
        next = undefined;
        return start();
      });
    return next;
  };
}

/**
 * The steps of one user journey as jest tests that run in order: once a step fails, the later ones stop at once
 * (naming the step that failed) instead of each waiting for its own time-out.
 */
export function journey(): (name: string, run: () => Promise<void>, timeout?: number) => void {
  let failedStep: string | null = null;
  return (name, run, timeout) => {
    test(
      name,
      async () => {
        if (failedStep) throw new Error(`not run: the earlier step "${failedStep}" failed`);
        try {
          await run();
        } catch (error) {
          failedStep = name;
          throw error;
        }
      },
      timeout,
    );
  };
}

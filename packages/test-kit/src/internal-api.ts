import { AppError } from '@productgen/service-kit';

/**
 * The refusal an internal API client's call ends with (its status and message, as the caller sees them), for contract
 * suites that check every implementation refuses alike; a call that succeeds, or fails otherwise, fails the test.
 */
export async function refusal(call: Promise<unknown>): Promise<{ status: number; message: string }> {
  const error = await call.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof AppError)) throw new Error(`expected an error answer, got ${String(error)}`);
  return { status: error.status, message: error.message };
}

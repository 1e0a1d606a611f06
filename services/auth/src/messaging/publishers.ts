import type { MessageBus } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { UserRecord } from '../domain/user';

/** One id per user: a republish after a crash is dropped by consumers as the same message. */
export function signedUpMessageId(userId: string): string {
  return `${topics.userSignedUp}:${userId}`;
}

export async function publishUserSignedUp(bus: MessageBus, user: UserRecord, at: Date): Promise<void> {
  const payload = parseMessage(topics.userSignedUp, {
    userId: user.id,
    email: user.email,
    name: user.name,
    ref_code: user.refCode,
    at: at.toISOString(),
  });
  await bus.publish(topics.userSignedUp, payload, { messageId: signedUpMessageId(user.id) });
}

/** Tells every gateway replica that a session ended, so none keeps accepting its key from its cache. */
export async function publishSessionRevoked(
  bus: MessageBus,
  session: { userId: string; keyHash: string },
  at: Date,
): Promise<void> {
  const payload = parseMessage(topics.sessionRevoked, {
    userId: session.userId,
    session_key_hash: session.keyHash,
    at: at.toISOString(),
  });
  await bus.publish(topics.sessionRevoked, payload, { messageId: `${topics.sessionRevoked}:${session.keyHash}` });
}

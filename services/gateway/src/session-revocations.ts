import { randomUUID } from 'node:crypto';
import type { MessageBus, Subscription } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { SessionVerifier } from './session-verifier';

/**
 * Every replica verifies sessions behind its own short cache, so a logout handled by one replica (or by auth
 * directly) left the key accepted by the others until their entries expired. Auth announces each revocation
 * (session.revoked); each replica consumes them on a queue of its own, so every replica gets every revocation.
 */
export const REVOCATION_QUEUE_PREFIX = 'gateway.session-revocations';
/** A replica that is gone (crashed, scaled away) leaves no queue behind once it has been unused this long. */
export const REVOCATION_QUEUE_EXPIRY_MS = 60_000;

export function subscribeToSessionRevocations(
  bus: MessageBus,
  sessions: Pick<SessionVerifier, 'evictDigest'>,
): Promise<Subscription> {
  return bus.subscribe(
    `${REVOCATION_QUEUE_PREFIX}.${randomUUID()}`,
    [topics.sessionRevoked],
    async (message) => {
      sessions.evictDigest(parseMessage(topics.sessionRevoked, message.payload).session_key_hash);
    },
    { expiresWhenUnusedMs: REVOCATION_QUEUE_EXPIRY_MS },
  );
}

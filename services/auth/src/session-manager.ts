import type { SessionRepository } from './data/session-repository';
import {
  generateSessionKey,
  hashSessionKey,
  isSessionActive,
  isWellFormedSessionKey,
  newSessionTimes,
  touchedIdleExpiry,
  type SessionPolicy,
} from './domain/session-keys';

export interface AuthenticatedSession {
  sessionId: string;
  userId: string;
  /** The hex SHA-256 of the key, which names the session in session.revoked. */
  keyHash: string;
}

/** Issues, checks and revokes session keys; the database only ever sees their hashes. */
export class SessionManager {
  constructor(
    private readonly sessions: SessionRepository,
    private readonly policy: SessionPolicy,
    private readonly now: () => Date,
  ) {}

  /** A fresh key for every sign-in. */
  async issue(userId: string): Promise<string> {
    const key = generateSessionKey();
    await this.sessions.create(hashSessionKey(key), userId, newSessionTimes(this.now(), this.policy));
    return key;
  }

  /** The session of a key, or undefined when the key is missing, unknown, revoked or expired. */
  async authenticate(key: unknown): Promise<AuthenticatedSession | undefined> {
    if (!isWellFormedSessionKey(key)) return undefined;
    const keyHash = hashSessionKey(key);
    const session = await this.sessions.findByKeyHash(keyHash);
    if (!session) return undefined;
    const now = this.now();
    if (!isSessionActive(session, now)) {
      await this.sessions.deleteById(session.id);
      return undefined;
    }
    const idleExpiresAt = touchedIdleExpiry(session, now, this.policy);
    if (idleExpiresAt) await this.sessions.touch(session, now, idleExpiresAt);
    return { sessionId: session.id, userId: session.userId, keyHash };
  }

  async revoke(sessionId: string): Promise<void> {
    await this.sessions.deleteById(sessionId);
  }
}

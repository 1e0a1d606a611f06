import { Types, type Model } from 'mongoose';
import type { SessionTimes } from '../domain/session-keys';
import type { SessionDocument } from './models';

export interface StoredSession extends SessionTimes {
  id: string;
  userId: string;
}

function toStoredSession(doc: SessionDocument): StoredSession {
  return {
    id: doc._id.toHexString(),
    userId: doc.user_id.toHexString(),
    createdAt: doc.created_at,
    lastSeenAt: doc.last_seen_at,
    idleExpiresAt: doc.idle_expires_at,
    absoluteExpiresAt: doc.absolute_expires_at,
  };
}

/** Sessions by the SHA-256 of their key: whoever reads this collection learns no usable key. */
export class SessionRepository {
  constructor(private readonly sessions: Model<SessionDocument>) {}

  async create(keyHash: string, userId: string, times: SessionTimes): Promise<void> {
    await this.sessions.create({
      key_hash: keyHash,
      user_id: new Types.ObjectId(userId),
      created_at: times.createdAt,
      last_seen_at: times.lastSeenAt,
      idle_expires_at: times.idleExpiresAt,
      absolute_expires_at: times.absoluteExpiresAt,
    });
  }

  async findByKeyHash(keyHash: string): Promise<StoredSession | undefined> {
    const doc = await this.sessions.findOne({ key_hash: keyHash }).lean<SessionDocument>();
    return doc ? toStoredSession(doc) : undefined;
  }

  /** Moves the idle deadline; conditional on the last touch so concurrent requests write once. */
  async touch(session: StoredSession, now: Date, idleExpiresAt: Date): Promise<void> {
    await this.sessions.updateOne(
      { _id: new Types.ObjectId(session.id), last_seen_at: session.lastSeenAt },
      { $set: { last_seen_at: now, idle_expires_at: idleExpiresAt } },
    );
  }

  async deleteByKeyHash(keyHash: string): Promise<boolean> {
    const result = await this.sessions.deleteOne({ key_hash: keyHash });
    return result.deletedCount > 0;
  }

  async deleteById(id: string): Promise<void> {
    await this.sessions.deleteOne({ _id: new Types.ObjectId(id) });
  }

  async countForUser(userId: string): Promise<number> {
    return this.sessions.countDocuments({ user_id: new Types.ObjectId(userId) });
  }
}

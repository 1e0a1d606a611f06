import { randomUUID } from 'node:crypto';
import {
  allTopics,
  ContractValidationError,
  messageSchemas,
  parseMessage,
  safeParseMessage,
  topics,
  type Topic,
} from '@productgen/contracts';

const at = new Date().toISOString();
const userId = 'u1';
const generationUuid = randomUUID();
const bulkJobUuid = randomUUID();

/** One valid payload per topic: proves every schema accepts what its producer is meant to send. */
const validPayloads: Record<Topic, unknown> = {
  'user.signed_up': { userId, email: 'ada@example.com', name: 'Ada', ref_code: null, at },
  'session.revoked': { userId, session_key_hash: 'a'.repeat(64), at },
  'credits.balance_changed': { userId, balance: 8, version: 4, has_purchased: false, at },
  'credits.image_refunded': { userId, generation_uuid: generationUuid, image_index: 1, at },
  'payment.completed': {
    userId,
    sessionId: 'cs_test_1',
    packageId: 2,
    credits: 50,
    amount_cents: 499,
    currency: 'usd',
    at,
  },
  'generation.requested': {
    userId,
    generation_uuid: generationUuid,
    count: 2,
    category: 'fashion',
    original_object_key: `originals/${generationUuid}.jpg`,
    original_filename: null,
    variations: [
      { index: 0, style: 'marketplace-white', seed: 1, preset_id: null },
      { index: 1, style: 'studio-sweep', seed: 4294967295, preset_id: 'p1' },
    ],
    watermark: true,
    bulk_job_uuid: null,
    at,
  },
  'generation.image_completed': {
    userId,
    generation_uuid: generationUuid,
    image_index: 0,
    output_object_key: 'out/0.png',
    bulk_job_uuid: bulkJobUuid,
    at,
  },
  'generation.completed': {
    userId,
    generation_uuid: generationUuid,
    images_completed: 4,
    images_failed: 1,
    thumbnail_object_key: 'thumbs/0.jpg',
    bulk_job_uuid: null,
    at,
  },
  'generation.failed': { userId, generation_uuid: generationUuid, error: 'Unreadable image', bulk_job_uuid: null, at },
};

describe('messages', () => {
  test('every topic constant has a schema and a sample, and nothing else does', () => {
    expect(Object.keys(messageSchemas).sort()).toEqual([...allTopics].sort());
    expect(Object.keys(validPayloads).sort()).toEqual([...allTopics].sort());
    expect(topics.userSignedUp).toBe('user.signed_up');
  });

  test.each(allTopics)('%s accepts a good payload and rejects an empty one', (topic) => {
    expect(parseMessage(topic, validPayloads[topic])).toEqual(validPayloads[topic]);
    expect(() => parseMessage(topic, {})).toThrow(ContractValidationError);
  });

  test('a bad payload is rejected with the reason', () => {
    const payload = { ...(validPayloads['generation.completed'] as object), images_completed: 0 };
    expect(() => parseMessage(topics.generationCompleted, payload)).toThrow(
      'Invalid generation.completed message: images_completed must be at least 1',
    );
  });

  test('a render job holds one variation per image', () => {
    const job = validPayloads['generation.requested'] as { count: number };
    const result = safeParseMessage(topics.generationRequested, { ...job, count: 3 });
    expect(result.success === false && result.issues.map((issue) => issue.message)).toEqual([
      'variations must hold one variation per image',
    ]);
  });

  test('an unknown topic is refused, not guessed', () => {
    const result = safeParseMessage('user.deleted' as Topic, {});
    expect(result).toEqual({
      success: false,
      issues: [{ location: 'message', path: '', message: 'Unknown topic "user.deleted"' }],
    });
  });

  test('the free-tier purchase cannot be a payment', () => {
    const payload = { ...(validPayloads['payment.completed'] as object), packageId: 0 };
    expect(safeParseMessage(topics.paymentCompleted, payload).success).toBe(false);
  });
});

import { randomBytes, randomUUID } from 'node:crypto';
import * as amqp from 'amqplib';
import request from 'supertest';
import {
  createAmqpBus,
  DEFAULT_SUBSCRIBE_OPTIONS,
  deadLetterQueueName,
  retryQueueName,
  type BusMessage,
} from '@productgen/bus';
import { topics, type MessagePayload } from '@productgen/contracts';
import { authQueues, creditsBalanceHandler } from '../src/messaging/consumers';
import { createModels } from '../src/data/models';
import { UserRepository } from '../src/data/user-repository';
import { authSuite, signInDev, silentLogger, startTestService, waitFor } from './helpers';

jest.setTimeout(90_000);

const suite = authSuite();

function balanceChanged(
  userId: string,
  balance: number,
  version: number,
  hasPurchased = false,
): MessagePayload<'credits.balance_changed'> {
  return { userId, balance, version, has_purchased: hasPurchased, at: new Date().toISOString() };
}

function asMessage<T>(topic: string, payload: T): BusMessage<T> {
  return { id: randomUUID(), topic, payload, headers: {}, deliveryCount: 1, publishedAt: new Date() };
}

async function credits(key: string): Promise<number> {
  const response = await request(suite.auth.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
  return response.body.credits as number;
}

describe('credits.balance_changed', () => {
  it('keeps user.credits current from the bus', async () => {
    const { session_key: key, user } = await signInDev(suite.auth, 'credits@example.com');
    expect(user.credits).toBe(0);
    // Billing has not reported yet: clients are told to fetch the user again.
    expect(user.credits_pending).toBe(true);
    await suite.auth.bus.publish(topics.creditsBalanceChanged, balanceChanged(user.id, 10, 1));
    await waitFor(async () => (await credits(key)) === 10, 'credits to become 10');
    const me = await request(suite.auth.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
    expect(me.body.credits_pending).toBe(false);
  });

  it('applies each version once and ignores older ones (idempotent by version)', async () => {
    const { session_key: key, user } = await signInDev(suite.auth, 'versions@example.com');
    const handle = creditsBalanceHandler(
      new UserRepository((await createModels(suite.auth.connection)).users),
      silentLogger,
    );

    await handle(asMessage(topics.creditsBalanceChanged, balanceChanged(user.id, 50, 3, true)));
    expect(await credits(key)).toBe(50);
    await handle(asMessage(topics.creditsBalanceChanged, balanceChanged(user.id, 10, 2)));
    expect(await credits(key)).toBe(50);
    // A redelivery of version 3 carrying another number changes nothing either.
    await handle(asMessage(topics.creditsBalanceChanged, balanceChanged(user.id, 99, 3)));
    expect(await credits(key)).toBe(50);
    await handle(asMessage(topics.creditsBalanceChanged, balanceChanged(user.id, 45, 4, true)));
    expect(await credits(key)).toBe(45);
    const stored = await suite.auth.connection.collection('users').findOne({ email: 'versions@example.com' });
    expect(stored).toMatchObject({ credits: 45, credits_version: 4, has_purchased: true });
  });

  it('rejects a payload that breaks the contract (so the bus dead-letters it)', async () => {
    const handle = creditsBalanceHandler(
      new UserRepository((await createModels(suite.auth.connection)).users),
      silentLogger,
    );
    await expect(handle(asMessage(topics.creditsBalanceChanged, { userId: 'x', balance: -1 }))).rejects.toThrow(
      /Invalid credits.balance_changed message/,
    );
  });
});

describe('first generation', () => {
  it('turns is_first_generation off when a generation of the user completes', async () => {
    const { session_key: key, user } = await signInDev(suite.auth, 'firstgen@example.com');
    await suite.auth.bus.publish(topics.generationCompleted, {
      userId: user.id,
      generation_uuid: randomUUID(),
      images_completed: 5,
      images_failed: 0,
      thumbnail_object_key: null,
      bulk_job_uuid: null,
      at: new Date().toISOString(),
    });
    await waitFor(async () => {
      const me = await request(suite.auth.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
      return me.body.flags.is_first_generation === false;
    }, 'is_first_generation to turn false');
  });

  it('also turns it off through the internal endpoint', async () => {
    const { session_key: key, user } = await signInDev(suite.auth, 'firstgen-http@example.com');
    await request(suite.auth.service.app)
      .post(`/internal/users/${user.id}/first-generation-done`)
      .expect(200, { success: true });
    const me = await request(suite.auth.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
    expect(me.body.flags.is_first_generation).toBe(false);
  });
});

const AMQP_URL = process.env.AMQP_URL;
const describeAmqp = AMQP_URL ? describe : describe.skip;

describeAmqp('on RabbitMQ (AMQP_URL)', () => {
  const exchange = `auth-test-${randomBytes(4).toString('hex')}`;

  afterAll(async () => {
    const admin = await amqp.connect(AMQP_URL as string);
    const channel = await admin.createChannel();
    for (const queue of Object.values(authQueues)) {
      await channel.deleteQueue(queue);
      await channel.deleteQueue(deadLetterQueueName(queue));
      for (const delay of new Set(DEFAULT_SUBSCRIBE_OPTIONS.retryDelaysMs))
        await channel.deleteQueue(retryQueueName(queue, delay));
    }
    await channel.deleteExchange(exchange);
    await admin.close();
  });

  it('consumes credits.balance_changed from the broker', async () => {
    const bus = await createAmqpBus({
      url: AMQP_URL as string,
      exchange,
      logger: silentLogger,
      connectionName: exchange,
    });
    const onAmqp = await startTestService(suite.mongo, { bus });
    try {
      const { session_key: key, user } = await signInDev(onAmqp, 'amqp@example.com');
      await bus.publish(topics.creditsBalanceChanged, balanceChanged(user.id, 7, 1));
      await waitFor(async () => {
        const me = await request(onAmqp.service.app).get('/auth/me').set('X-Session-Key', key).expect(200);
        return me.body.credits === 7;
      }, 'credits over AMQP');
    } finally {
      await onAmqp.close();
      await bus.close();
    }
  });
});

import {
  assertQueueName,
  assertTopic,
  assertTopicPattern,
  deadLetterQueueName,
  retryQueueName,
  topicMatches,
  DEFAULT_SUBSCRIBE_OPTIONS,
} from '../src';
import { resolveSubscribeOptions, retryDelay } from '../src/delivery';

describe('topicMatches (RabbitMQ topic exchange rules)', () => {
  test.each([
    ['a.b.c', 'a.b.c', true],
    ['a.b.c', 'a.b', false],
    ['a.*.c', 'a.b.c', true],
    ['a.*.c', 'a.c', false],
    ['a.*.c', 'a.b.b.c', false],
    ['a.#', 'a', true],
    ['a.#', 'a.b.c.d', true],
    ['a.#', 'b.a', false],
    ['#.c', 'c', true],
    ['#.c', 'a.b.c', true],
    ['#.c', 'a.b.c.d', false],
    ['#', 'anything.at.all', true],
    ['a.#.z', 'a.z', true],
    ['a.#.z', 'a.b.c.z', true],
    ['a.#.z', 'a.b.c', false],
    ['*', 'a', true],
    ['*', 'a.b', false],
    ['#.#', 'a.b', true],
  ])('%s matches %s: %s', (pattern, topic, expected) => {
    expect(topicMatches(pattern, topic)).toBe(expected);
  });
});

describe('name rules', () => {
  test('topics are dot-separated words without wildcards', () => {
    expect(() => assertTopic('generation.requested')).not.toThrow();
    expect(() => assertTopic('generation.*')).toThrow(/invalid topic/);
    expect(() => assertTopic('.x')).toThrow(/invalid topic/);
    expect(() => assertTopic('x'.repeat(256))).toThrow(/at most 255/);
    expect(() => assertTopic(42)).toThrow(TypeError);
  });

  test('patterns allow whole-word wildcards only', () => {
    expect(() => assertTopicPattern('generation.*.done')).not.toThrow();
    expect(() => assertTopicPattern('#')).not.toThrow();
    expect(() => assertTopicPattern('gen*.done')).toThrow(/invalid topic pattern/);
  });

  test('queue names are plain, bounded and never amq.*', () => {
    expect(() => assertQueueName('billing.generation-events')).not.toThrow();
    expect(() => assertQueueName('amq.gen-1')).toThrow(/reserved/);
    expect(() => assertQueueName('with space')).toThrow(/invalid queue name/);
    expect(() => assertQueueName('q'.repeat(201))).toThrow(/at most 200/);
  });

  test('derived queue names are deterministic', () => {
    expect(deadLetterQueueName('billing.events')).toBe('billing.events.dlq');
    expect(retryQueueName('billing.events', 5000)).toBe('billing.events.retry.5000');
  });
});

describe('subscribe options', () => {
  test('defaults', () => {
    expect(resolveSubscribeOptions()).toEqual(DEFAULT_SUBSCRIBE_OPTIONS);
  });

  test('the backoff schedule repeats its last delay', () => {
    const delays = [100, 500];
    expect([1, 2, 3, 4].map((deliveryCount) => retryDelay(delays, deliveryCount))).toEqual([100, 500, 500, 500]);
  });

  test.each([
    [{ prefetch: 1.5 }, /prefetch/],
    [{ maxDeliveries: 0 }, /maxDeliveries/],
    [{ retryDelaysMs: [-1] }, /retryDelaysMs/],
    [{ retryDelaysMs: [2 ** 31] }, /retryDelaysMs/],
  ])('refuses %j', (options, message) => {
    expect(() => resolveSubscribeOptions(options)).toThrow(message);
  });
});

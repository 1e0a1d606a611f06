// Names and their rules, shared by both implementations so they accept and refuse exactly the same input.

const WORD = /^[A-Za-z0-9_-]+$/;
const QUEUE = /^[A-Za-z0-9][A-Za-z0-9._:-]*$/;
// Leaves room for the `.retry.<ms>` suffix within AMQP's 255-byte limit.
const MAX_QUEUE_LENGTH = 200;
const MAX_TOPIC_LENGTH = 255;

export function assertTopic(topic: unknown): asserts topic is string {
  if (typeof topic !== 'string' || topic.length === 0 || topic.length > MAX_TOPIC_LENGTH) {
    throw new TypeError(`topic must be a non-empty string of at most ${MAX_TOPIC_LENGTH} characters`);
  }
  if (!topic.split('.').every((word) => WORD.test(word))) {
    throw new TypeError(`invalid topic "${topic}": use dot-separated words of letters, digits, "_" or "-"`);
  }
}

export function assertTopicPattern(pattern: unknown): asserts pattern is string {
  if (typeof pattern !== 'string' || pattern.length === 0 || pattern.length > MAX_TOPIC_LENGTH) {
    throw new TypeError(`topic pattern must be a non-empty string of at most ${MAX_TOPIC_LENGTH} characters`);
  }
  if (!pattern.split('.').every((word) => word === '*' || word === '#' || WORD.test(word))) {
    throw new TypeError(
      `invalid topic pattern "${pattern}": use dot-separated words, "*" (one word) or "#" (zero or more words)`,
    );
  }
}

export function assertQueueName(queue: unknown): asserts queue is string {
  if (typeof queue !== 'string' || queue.length === 0 || queue.length > MAX_QUEUE_LENGTH) {
    throw new TypeError(`queue name must be a non-empty string of at most ${MAX_QUEUE_LENGTH} characters`);
  }
  if (!QUEUE.test(queue) || queue.startsWith('amq.')) {
    throw new TypeError(
      `invalid queue name "${queue}": start with a letter or digit, then letters, digits, ".", "_", ":" or "-"; "amq." is reserved`,
    );
  }
}

/** Where messages that exhausted their deliveries go. */
export function deadLetterQueueName(queue: string): string {
  return `${queue}.dlq`;
}

/** One delay queue per distinct delay, so a long delay never holds up a shorter one queued behind it. */
export function retryQueueName(queue: string, delayMs: number): string {
  return `${queue}.retry.${delayMs}`;
}

/** AMQP topic-exchange matching: `*` matches exactly one word, `#` zero or more. */
export function topicMatches(pattern: string, topic: string): boolean {
  return matchWords(pattern.split('.'), topic.split('.'), 0, 0);
}

function matchWords(pattern: string[], topic: string[], p: number, t: number): boolean {
  if (p === pattern.length) return t === topic.length;
  const word = pattern[p];
  if (word === '#') {
    // Either "#" stops here (matches nothing more) or it swallows one more word.
    return matchWords(pattern, topic, p + 1, t) || (t < topic.length && matchWords(pattern, topic, p, t + 1));
  }
  if (t === topic.length) return false;
  return (word === '*' || word === topic[t]) && matchWords(pattern, topic, p + 1, t + 1);
}

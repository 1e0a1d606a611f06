import amqp, { type Channel, type ChannelModel } from 'amqplib';
import { connectMongo, createLogger } from '@productgen/service-kit';
import { listObjectKeys, type S3Access } from '@productgen/test-kit/object-store';
import { pollUntil } from '@productgen/test-kit';

/**
 * A Jepsen-style history of one run: every effect the platform made, read from where it is kept (billing's ledger
 * in MongoDB, the generations' images, the object store's listing) plus every message the bus carried, and a checker
 * that finds lost, duplicated and reordered effects in it. The checker is a pure function of the history, so its
 * own test feeds it histories with planted anomalies.
 */

export interface LedgerEntry {
  /** Insertion order: ObjectIds grow with each insert of the one billing writer of an account. */
  id: string;
  user_id: string;
  source_ref: string;
  kind: string;
  type: 'increase' | 'decrease';
  amount: number;
  generation_id: string | null;
  balance_after: number;
}

export interface GenerationRecord {
  uuid: string;
  user_id: string;
  stage: string;
  original_key: string;
  cutout_key: string | null;
  images: Array<{ index: number; base_key: string | null; final_key: string | null; refunded: boolean }>;
}

export interface Delivery {
  /** Order in which the recording queue received it. */
  seq: number;
  topic: string;
  messageId: string;
  payload: Record<string, unknown>;
}

export interface History {
  /** The user whose account the run charged. */
  userId: string;
  /** Generations the run asked for and how many images each. */
  expected: Array<{ uuid: string; images: number }>;
  ledger: LedgerEntry[];
  accountBalance: number;
  generations: GenerationRecord[];
  /** Keys under `generations/` in the generation bucket. */
  objects: string[];
  /** Null when the bus was not recorded. */
  deliveries: Delivery[] | null;
}

export type AnomalyKind = 'lost' | 'duplicated' | 'reordered' | 'balance';
export interface Anomaly {
  kind: AnomalyKind;
  what: string;
}

export interface HistorySummary {
  anomalies: Anomaly[];
  counts: {
    ledgerEntries: number;
    charged: number;
    givenBack: number;
    imagesDelivered: number;
    objects: number;
    deliveries: number;
    redeliveries: number;
    /** Completions (an image's, a generation's) the bus never announced; see checkDeliveries. */
    unannounced: number;
  };
}

const signed = (entry: LedgerEntry) => (entry.type === 'increase' ? entry.amount : -entry.amount);

/**
 * An order of the entries in which each one's balance_after is the balance before it plus its amount, starting
 * from 0, or null when there is none. Billing moves the balance first and writes the entries after, so two
 * operations running side by side may insert their entries in the other order than their balance moves: the
 * insertion order is tried first, and the other entries that fit the running balance when it does not go on
 * (depth-first, a few thousand steps at most: a run has tens of entries). A lost, doubled or out-of-turn write
 * leaves no such order.
 */
export function chainOf(entries: readonly LedgerEntry[]): LedgerEntry[] | null {
  let steps = 0;
  const walk = (balance: number, left: readonly LedgerEntry[]): LedgerEntry[] | null => {
    if (left.length === 0) return [];
    for (let index = 0; index < left.length && steps < 100_000; index += 1) {
      steps += 1;
      const entry = left[index]!;
      if (entry.balance_after !== balance + signed(entry)) continue;
      // Entries of the same move from the same balance are interchangeable: try each move once.
      if (
        left
          .slice(0, index)
          .some((other) => other.balance_after === entry.balance_after && signed(other) === signed(entry))
      )
        continue;
      const rest = walk(entry.balance_after, [...left.slice(0, index), ...left.slice(index + 1)]);
      if (rest) return [entry, ...rest];
    }
    return null;
  };
  return walk(0, entries);
}

/** Checks one history; an empty `anomalies` list means every effect happened exactly once and in order. */
export function checkHistory(history: History): HistorySummary {
  const anomalies: Anomaly[] = [];
  const report = (kind: AnomalyKind, what: string) => anomalies.push({ kind, what });
  const ledger = history.ledger.filter((entry) => entry.user_id === history.userId);
  const expected = new Map(history.expected.map((generation) => [generation.uuid, generation.images]));

  // Ledger: one entry per source (billing's idempotency key), and every balance_after on one chain from 0.
  const sources = new Set<string>();
  for (const entry of ledger) {
    if (sources.has(entry.source_ref)) report('duplicated', `ledger entry ${entry.source_ref} written twice`);
    sources.add(entry.source_ref);
  }
  if (!chainOf(ledger)) {
    report('reordered', "no order of the ledger entries moves the balance through every entry's balance_after");
  }
  const sum = ledger.reduce((total, entry) => total + signed(entry), 0);
  if (history.accountBalance !== sum) report('balance', `balance ${history.accountBalance} ≠ sum of entries ${sum}`);

  // Per generation: credits charged = images delivered + credits given back; the charge comes before any give-back;
  // each image index once, each delivered image's objects stored.
  const objects = new Set(history.objects);
  const referenced = new Set<string>();
  const recorded = new Set<string>();
  let charged = 0;
  let givenBack = 0;
  let imagesDelivered = 0;
  for (const [uuid, images] of expected) {
    const generation = history.generations.find((candidate) => candidate.uuid === uuid);
    if (!generation) {
      report('lost', `generation ${uuid}`);
      continue;
    }
    recorded.add(uuid);
    const entries = ledger.filter((entry) => entry.generation_id === uuid);
    const charges = entries.filter((entry) => entry.type === 'decrease');
    const giveBacks = entries.filter((entry) => entry.type === 'increase');
    const chargedHere = charges.reduce((total, entry) => total + entry.amount, 0);
    const givenBackHere = giveBacks.reduce((total, entry) => total + entry.amount, 0);
    const delivered = generation.images.filter((image) => image.final_key !== null);
    charged += chargedHere;
    givenBack += givenBackHere;
    imagesDelivered += delivered.length;
    if (chargedHere !== images)
      report(chargedHere > images ? 'duplicated' : 'lost', `${uuid}: charged ${chargedHere} for ${images} images`);
    if (delivered.length + givenBackHere !== chargedHere) {
      report(
        delivered.length + givenBackHere > chargedHere ? 'duplicated' : 'lost',
        `${uuid}: ${delivered.length} delivered + ${givenBackHere} given back ≠ ${chargedHere} charged`,
      );
    }
    const firstCharge = charges[0] && ledger.indexOf(charges[0]);
    for (const giveBack of giveBacks) {
      if (firstCharge === undefined || ledger.indexOf(giveBack) < firstCharge) {
        report('reordered', `${uuid}: give-back ${giveBack.source_ref} before the charge`);
      }
    }
    const indexes = generation.images.map((image) => image.index);
    if (new Set(indexes).size !== indexes.length) report('duplicated', `${uuid}: an image index twice`);
    if (generation.images.length !== images) {
      report(
        generation.images.length > images ? 'duplicated' : 'lost',
        `${uuid}: ${generation.images.length} images of ${images}`,
      );
    }
    const keys = [
      generation.original_key,
      generation.cutout_key,
      ...delivered.flatMap((image) => [image.base_key, image.final_key]),
    ].filter((key): key is string => key !== null);
    for (const key of keys) {
      referenced.add(key);
      if (!objects.has(key)) report('lost', `object ${key}`);
    }
  }
  // An object of a recorded generation of the run that no record names was written by a render whose result was dropped: work done
  // twice, or an effect the records lost.
  for (const key of history.objects) {
    const owner = /^generations\/([^/]+)\//.exec(key)?.[1];
    if (owner && recorded.has(owner) && !referenced.has(key)) report('duplicated', `object ${key} no record names`);
  }

  const bus = history.deliveries ? checkDeliveries(history, expected, report) : { redeliveries: 0, unannounced: 0 };

  return {
    anomalies,
    counts: {
      ledgerEntries: ledger.length,
      charged,
      givenBack,
      imagesDelivered,
      objects: history.objects.length,
      deliveries: history.deliveries?.length ?? 0,
      ...bus,
    },
  };
}

/**
 * The bus: delivery is at least once, so the same message (same id) may come twice, and consumers drop the second;
 * that is counted, not an anomaly. Each generation's render request goes out through generation's outbox, so a
 * missing one is lost. The announcements of a finished image or generation are not guaranteed: they are published
 * after the record is written, a process killed in between never sends them, and their consumers (bulk's progress)
 * read the records on a timer as well; a missing one is counted, not an anomaly. An event published twice under
 * different ids is an effect made twice, and an image announced before its request or after its generation's
 * completion is out of order.
 */
function checkDeliveries(
  history: History,
  expected: Map<string, number>,
  report: (kind: AnomalyKind, what: string) => void,
): { redeliveries: number; unannounced: number } {
  const deliveries = history.deliveries!;
  const seenIds = new Set<string>();
  let redeliveries = 0;
  let unannounced = 0;
  const first = new Map<string, { seq: number; messageId: string }>();
  for (const delivery of deliveries) {
    if (seenIds.has(delivery.messageId)) {
      redeliveries += 1;
      continue;
    }
    seenIds.add(delivery.messageId);
    const { generation_uuid: uuid, image_index: index } = delivery.payload;
    if (typeof uuid !== 'string' || !expected.has(uuid)) continue;
    const key = `${delivery.topic} ${uuid}${typeof index === 'number' ? ` #${index}` : ''}`;
    const earlier = first.get(key);
    if (earlier) report('duplicated', `${key} published twice (${earlier.messageId}, ${delivery.messageId})`);
    else first.set(key, { seq: delivery.seq, messageId: delivery.messageId });
  }
  for (const [uuid] of expected) {
    const requested = first.get(`generation.requested ${uuid}`);
    const completed = first.get(`generation.completed ${uuid}`);
    if (!requested) report('lost', `generation.requested ${uuid}`);
    if (!completed) unannounced += 1;
    const generation = history.generations.find((candidate) => candidate.uuid === uuid);
    for (const image of generation?.images.filter((candidate) => candidate.final_key !== null) ?? []) {
      const announced = first.get(`generation.image_completed ${uuid} #${image.index}`);
      if (!announced) unannounced += 1;
      else if ((requested && announced.seq < requested.seq) || (completed && announced.seq > completed.seq)) {
        report('reordered', `generation.image_completed ${uuid} #${image.index} outside its request and completion`);
      }
    }
  }
  return { redeliveries, unannounced };
}

// ── recording ───────────────────────────────────────────────────────────────────────────────────────────────────

/**
 * Records every message published to the platform's exchange on a durable queue of its own, bound to every topic.
 * A broker dropping the connection (the fault tests do) does not lose any: the queue keeps them and the recorder
 * reconnects and reads on. `drain` waits until the queue is empty.
 */
export class BusRecorder {
  readonly deliveries: Delivery[] = [];
  private connection: ChannelModel | undefined;
  private channel: Channel | undefined;
  private stopped = false;
  private reconnecting: Promise<void> | undefined;

  private constructor(
    private readonly vhostUrl: string,
    private readonly queue: string,
    private readonly exchange: string,
  ) {}

  static async start(vhostUrl: string, exchange = 'productgen'): Promise<BusRecorder> {
    const recorder = new BusRecorder(vhostUrl, 'resilience.history', exchange);
    await recorder.connect();
    return recorder;
  }

  private async connect(): Promise<void> {
    const connection = await amqp.connect(this.vhostUrl);
    connection.on('error', () => undefined); // a closed connection is followed by 'close', handled below
    connection.on('close', () => {
      if (!this.stopped) this.reconnecting = this.reconnect();
    });
    const channel = await connection.createChannel();
    await channel.assertExchange(this.exchange, 'topic', { durable: true });
    await channel.assertQueue(this.queue, { durable: true });
    await channel.bindQueue(this.queue, this.exchange, '#');
    await channel.consume(this.queue, (message) => {
      if (!message) return;
      this.deliveries.push({
        seq: this.deliveries.length,
        topic: message.fields.routingKey,
        messageId: String(message.properties.messageId),
        payload: JSON.parse(message.content.toString()) as Record<string, unknown>,
      });
      channel.ack(message);
    });
    this.connection = connection;
    this.channel = channel;
  }

  private async reconnect(): Promise<void> {
    await pollUntil(
      'the bus recorder to reconnect',
      () =>
        this.connect().then(
          () => true,
          () => false,
        ),
      (connected) => connected || this.stopped,
      { intervalMs: 250 },
    );
  }

  /** Waits until every message published so far has been read. */
  async drain(): Promise<void> {
    await pollUntil(
      'the bus recorder to read every message',
      async () => {
        await this.reconnecting;
        return (await this.channel!.checkQueue(this.queue)).messageCount;
      },
      (waiting) => waiting === 0,
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.reconnecting;
    await this.connection?.close().catch(() => undefined);
  }
}

/** Reads the stored effects of one user's run from the platform's MongoDB and object store. */
export async function readStoredEffects(options: {
  mongoUrl: string;
  s3: S3Access;
  bucket: string;
  userId: string;
}): Promise<Pick<History, 'ledger' | 'accountBalance' | 'generations' | 'objects'>> {
  const logger = createLogger({ service: 'history', level: 'error' });
  const open = (dbName: string) => connectMongo({ url: options.mongoUrl, dbName, logger });
  const billing = await open('billing');
  const generation = await open('generation');
  try {
    const billingDb = billing.connection.db!;
    const entries = await billingDb
      .collection('ledger_entries')
      .find({ user_id: options.userId })
      .sort({ _id: 1 })
      .toArray();
    const account = await billingDb.collection<{ _id: string; balance: number }>('accounts').findOne({
      _id: options.userId,
    });
    const generations = await generation.connection
      .db!.collection('generations')
      .find({ user_id: options.userId })
      .toArray();
    return {
      ledger: entries.map((entry) => ({
        id: String(entry._id),
        user_id: entry.user_id as string,
        source_ref: entry.source_ref as string,
        kind: entry.kind as string,
        type: entry.type as LedgerEntry['type'],
        amount: entry.amount as number,
        generation_id: (entry.generation_id as string | null) ?? null,
        balance_after: entry.balance_after as number,
      })),
      accountBalance: account?.balance ?? 0,
      generations: generations.map((record) => ({
        uuid: record.uuid as string,
        user_id: record.user_id as string,
        stage: record.stage as string,
        original_key: record.original_key as string,
        cutout_key: (record.cutout as { key: string } | null)?.key ?? null,
        images: (record.images as GenerationRecord['images']).map((image) => ({
          index: image.index,
          base_key: image.base_key ?? null,
          final_key: image.final_key ?? null,
          refunded: Boolean(image.refunded),
        })),
      })),
      objects: await listObjectKeys(options.s3, options.bucket, 'generations/'),
    };
  } finally {
    await billing.close();
    await generation.close();
  }
}

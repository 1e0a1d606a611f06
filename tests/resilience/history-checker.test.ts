import { checkHistory, type Delivery, type History, type LedgerEntry } from '../support/history';

// The resilience suite's history checker on made-up histories: a clean run passes, and each planted anomaly (lost,
// duplicated, reordered, a balance off its entries) is found, so a passing resilience run means something.

const USER = 'user-1';
const GENERATIONS = ['gen-a', 'gen-b'];
const IMAGES = 2;

function entry(
  source: string,
  type: LedgerEntry['type'],
  amount: number,
  balanceAfter: number,
  generation: string | null,
): LedgerEntry {
  return {
    id: source,
    user_id: USER,
    source_ref: source,
    kind: generation ? 'generation' : 'signup',
    type,
    amount,
    generation_id: generation,
    balance_after: balanceAfter,
  };
}

function cleanHistory(): History {
  const ledger = [
    entry('signup', 'increase', 10, 10, null),
    entry('gen-a:charge', 'decrease', 2, 8, 'gen-a'),
    entry('gen-b:charge', 'decrease', 2, 6, 'gen-b'),
  ];
  const generations = GENERATIONS.map((uuid) => ({
    uuid,
    user_id: USER,
    stage: 'completed',
    original_key: `generations/${uuid}/original.jpg`,
    cutout_key: `generations/${uuid}/cutout/matte.png`,
    images: Array.from({ length: IMAGES }, (_, index) => ({
      index,
      base_key: `generations/${uuid}/${index}/base.jpg`,
      final_key: `generations/${uuid}/${index}/final.jpg`,
      refunded: false,
    })),
  }));
  const objects = generations.flatMap((generation) => [
    generation.original_key,
    generation.cutout_key,
    ...generation.images.flatMap((image) => [image.base_key, image.final_key]),
  ]);
  const deliveries: Delivery[] = [];
  const publish = (topic: string, messageId: string, payload: Record<string, unknown>) =>
    deliveries.push({ seq: deliveries.length, topic, messageId, payload });
  for (const uuid of GENERATIONS) {
    publish('generation.requested', `${uuid}-requested`, { generation_uuid: uuid });
    for (let index = 0; index < IMAGES; index += 1) {
      publish('generation.image_completed', `${uuid}-${index}`, { generation_uuid: uuid, image_index: index });
    }
    publish('generation.completed', `${uuid}-completed`, { generation_uuid: uuid });
  }
  return {
    userId: USER,
    expected: GENERATIONS.map((uuid) => ({ uuid, images: IMAGES })),
    ledger,
    accountBalance: 6,
    generations,
    objects: objects.sort(),
    deliveries,
  };
}

const kinds = (history: History) => checkHistory(history).anomalies.map((anomaly) => anomaly.kind);

describe('the history checker', () => {
  test('a clean run has no anomaly and its counts', () => {
    expect(checkHistory(cleanHistory())).toEqual({
      anomalies: [],
      counts: {
        ledgerEntries: 3,
        charged: 4,
        givenBack: 0,
        imagesDelivered: 4,
        objects: 12,
        deliveries: 8,
        redeliveries: 0,
        unannounced: 0,
      },
    });
  });

  test('entries of two operations inserted in the other order than their balance moved still form one chain', () => {
    const history = cleanHistory();
    history.ledger = [history.ledger[0]!, history.ledger[2]!, history.ledger[1]!].map((moved, index, all) =>
      // gen-b moved the balance first (10 → 8), gen-a second (8 → 6), but gen-a's entry was inserted first
      index === 0 ? moved : { ...moved, balance_after: moved === all[1] ? 8 : 6 },
    );
    history.ledger = [history.ledger[0]!, history.ledger[2]!, history.ledger[1]!];
    expect(kinds(history)).toEqual([]);
  });

  test('completions the bus never announced are counted, not anomalies (their consumers also poll)', () => {
    const history = cleanHistory();
    history.deliveries = history.deliveries!.filter(
      (delivery) => delivery.topic !== 'generation.completed' && delivery.messageId !== 'gen-b-1',
    );
    expect(checkHistory(history)).toMatchObject({ anomalies: [], counts: { unannounced: 3 } });
  });

  test('a message delivered twice (the same id) is counted, not an anomaly', () => {
    const history = cleanHistory();
    history.deliveries!.push({ ...history.deliveries![1]!, seq: history.deliveries!.length });
    expect(checkHistory(history)).toMatchObject({ anomalies: [], counts: { redeliveries: 1 } });
  });

  test.each<[string, (history: History) => void, string[]]>([
    [
      'a charge written twice',
      (history) => history.ledger.push({ ...history.ledger[1]!, id: 'again', balance_after: 4 }),
      // the entry twice, the account off its entries, 4 charged for 2 images, 2 of them with no image
      ['duplicated', 'balance', 'duplicated', 'lost'],
    ],
    ['a balance off its entries', (history) => (history.accountBalance = 7), ['balance']],
    [
      'a balance_after that no order of entries gives',
      (history) => (history.ledger[1]!.balance_after = 7),
      ['reordered'],
    ],
    [
      'a give-back before its charge',
      (history) => {
        history.ledger.splice(1, 0, entry('gen-a:give-back', 'increase', 1, 11, 'gen-a'));
        history.ledger[2]!.balance_after = 9;
        history.ledger[3]!.balance_after = 7;
        history.accountBalance = 7;
        history.generations[0]!.images[1]!.final_key = null;
        history.generations[0]!.images[1]!.base_key = null;
        history.objects = history.objects.filter((key) => !key.startsWith('generations/gen-a/1/'));
        history.deliveries = history.deliveries!.filter((delivery) => delivery.messageId !== 'gen-a-1');
      },
      ['reordered'],
    ],
    ['an image lost', (history) => history.generations[1]!.images.pop(), ['lost', 'lost', 'duplicated', 'duplicated']],
    ['a stored object lost', (history) => history.objects.shift(), ['lost']],
    [
      'an object no record names (a render made twice)',
      (history) => history.objects.push('generations/gen-a/0/final-2.jpg'),
      ['duplicated'],
    ],
    ['a generation lost', (history) => history.generations.shift(), ['lost']],
    [
      'a render request lost (it goes out through an outbox)',
      (history) =>
        (history.deliveries = history.deliveries!.filter((delivery) => delivery.messageId !== 'gen-a-requested')),
      ['lost'],
    ],
    [
      'an image announced twice under two ids',
      (history) => history.deliveries!.splice(2, 0, { ...history.deliveries![1]!, messageId: 'another-id', seq: 1.5 }),
      ['duplicated'],
    ],
    [
      'an image announced after its generation completed',
      (history) => {
        const [image] = history.deliveries!.splice(1, 1);
        history.deliveries!.splice(3, 0, image!);
        history.deliveries!.forEach((delivery, seq) => (delivery.seq = seq));
      },
      ['reordered'],
    ],
  ])('%s is found', (_name, plant, expected) => {
    const history = cleanHistory();
    plant(history);
    expect(kinds(history).sort()).toEqual([...expected].sort());
  });
});

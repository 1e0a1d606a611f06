import { BSON } from 'bson';
import mongoose, { type Connection } from 'mongoose';
import { embeddedTarget } from './helpers/targets';
import { opMsg, opQuery, RawClient, rawMessage } from './helpers/raw-client';

jest.setTimeout(60_000);

/** `{blob: BinData(bytes)}` built by hand: the bson serializer refuses documents this large. */
function binaryDocument(bytes: number): Buffer {
  const field = Buffer.from([0x05, ...Buffer.from('blob'), 0]);
  const size = 4 + field.length + 4 + 1 + bytes + 1;
  const doc = Buffer.alloc(size);
  doc.writeInt32LE(size, 0);
  field.copy(doc, 4);
  doc.writeInt32LE(bytes, 4 + field.length);
  return doc;
}

/** Raw-socket behaviour of the embedded server: handshake, OP_MSG details and hostile input. */
describe('wire protocol (embedded server)', () => {
  let url: string;
  let stop: () => Promise<void>;
  let conn: Connection;
  const clients: RawClient[] = [];

  const rawClient = async (): Promise<RawClient> => {
    const client = await RawClient.connect(url);
    clients.push(client);
    return client;
  };

  /** Proves the server still serves well-behaved clients. */
  const expectHealthy = async (): Promise<void> => {
    await conn.db!.collection('health').insertOne({ at: new Date() });
    expect(await conn.db!.admin().command({ ping: 1 })).toMatchObject({ ok: 1 });
  };

  beforeAll(async () => {
    const started = await embeddedTarget.start();
    url = started.url;
    stop = started.stop;
    conn = await mongoose.createConnection(`${url}/wire`).asPromise();
  });

  afterEach(() => {
    for (const client of clients.splice(0)) client.close();
  });

  afterAll(async () => {
    await conn?.close();
    await stop?.();
  });

  it('answers the legacy OP_QUERY isMaster handshake with OP_REPLY', async () => {
    const client = await rawClient();
    client.send(opQuery(7, 'admin.$cmd', { isMaster: 1, helloOk: true, client: { driver: { name: 'raw' } } }));
    const reply = await client.read();
    expect(reply).toMatchObject({ opCode: 1, responseTo: 7 });
    expect(reply!.doc).toMatchObject({
      ismaster: true,
      isWritablePrimary: true,
      helloOk: true,
      maxWireVersion: 21,
      minWireVersion: 0,
      maxBsonObjectSize: 16 * 1024 * 1024,
      maxMessageSizeBytes: 48_000_000,
      maxWriteBatchSize: 100_000,
      logicalSessionTimeoutMinutes: 30,
      ok: 1,
    });
    expect(typeof reply!.doc.connectionId).toBe('number');
    expect(reply!.doc.localTime).toBeInstanceOf(Date);
  });

  it('accepts document sequences, skips checksums and stays silent for moreToCome', async () => {
    const client = await rawClient();
    const docs = [BSON.serialize({ _id: 1, v: 'a' }), BSON.serialize({ _id: 2, v: 'b' })].map((d) => Buffer.from(d));
    const moreToCome = 2;
    client.send(
      opMsg(
        1,
        { insert: 'seq', $db: 'wire', writeConcern: { w: 0 } },
        { sequences: { documents: docs }, flags: moreToCome },
      ),
    );
    client.send(opMsg(2, { find: 'seq', filter: {}, $db: 'wire' }, { checksum: true }));
    const reply = await client.read();
    expect(reply!.responseTo).toBe(2);
    expect(reply!.doc.cursor.firstBatch).toEqual([
      { _id: 1, v: 'a' },
      { _id: 2, v: 'b' },
    ]);
  });

  it('reassembles messages that arrive one byte at a time', async () => {
    const client = await rawClient();
    const message = opMsg(3, { ping: 1, $db: 'admin' });
    for (const byte of message) client.send(Buffer.from([byte]));
    expect((await client.read())!.doc).toMatchObject({ ok: 1 });
  });

  it('replies with an error to malformed BSON and unknown opcodes, keeping the connection', async () => {
    const client = await rawClient();
    const badBody = Buffer.concat([
      Buffer.alloc(4),
      Buffer.from([0]),
      Buffer.from([0x20, 0, 0, 0, 0x02, 0x61, 0, 0xff, 0xff, 0xff, 0x7f]),
    ]);
    badBody.writeUInt32LE(0, 0);
    client.send(rawMessage(10, 2013, badBody));
    const malformed = await client.read();
    expect(malformed).toMatchObject({ opCode: 2013, responseTo: 10 });
    expect(malformed!.doc).toMatchObject({ ok: 0 });
    expect([17, 22]).toContain(malformed!.doc.code);

    client.send(rawMessage(11, 2010, Buffer.from('not a real opcode')));
    const unsupported = await client.read();
    expect(unsupported).toMatchObject({ responseTo: 11 });
    expect(unsupported!.doc).toMatchObject({ ok: 0, code: 17 });

    client.send(opMsg(12, { ping: 1, $db: 'admin' }, { flags: 1 << 5 }));
    expect((await client.read())!.doc).toMatchObject({ ok: 0, code: 17 });

    client.send(opMsg(13, { ping: 1, $db: 'admin' }));
    expect((await client.read())!.doc).toMatchObject({ ok: 1 });
    expect(client.isClosed).toBe(false);
  });

  it('answers an unknown command with CommandNotFound', async () => {
    const client = await rawClient();
    client.send(opMsg(20, { frobnicate: 1, $db: 'wire' }));
    expect((await client.read())!.doc).toEqual({
      ok: 0,
      errmsg: "no such command: 'frobnicate'",
      code: 59,
      codeName: 'CommandNotFound',
    });
  });

  it('refuses transactions like a standalone mongod but tolerates a bare txnNumber', async () => {
    const client = await rawClient();
    const lsid = { id: new BSON.UUID() };
    const txnNumber = BSON.Long.fromNumber(1);
    client.send(
      opMsg(21, {
        insert: 'txn',
        documents: [{ a: 1 }],
        lsid,
        txnNumber,
        startTransaction: true,
        autocommit: false,
        $db: 'wire',
      }),
    );
    expect((await client.read())!.doc).toMatchObject({ ok: 0, code: 20, codeName: 'IllegalOperation' });
    client.send(opMsg(22, { insert: 'txn', documents: [{ a: 2 }], lsid, txnNumber, $db: 'wire' }));
    expect((await client.read())!.doc).toMatchObject({ n: 1, ok: 1 });
  });

  it('closes a connection whose bytes cannot be framed while other clients keep working', async () => {
    const client = await rawClient();
    client.send(Buffer.from([3, 0, 0, 0, 0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4, 5, 6, 7, 8]));
    await client.closed;
    await expectHealthy();
  });

  it('refuses a message larger than 48 MB without reading it, then closes', async () => {
    const client = await rawClient();
    const header = Buffer.alloc(16);
    header.writeInt32LE(60_000_000, 0);
    header.writeInt32LE(99, 4);
    header.writeInt32LE(2013, 12);
    client.send(header);
    const reply = await client.read();
    expect(reply).toMatchObject({ responseTo: 99 });
    expect(reply!.doc).toMatchObject({ ok: 0, code: 17 });
    await client.closed;
    await expectHealthy();
  });

  it('rejects a document over 16 MiB with BSONObjectTooLarge', async () => {
    const client = await rawClient();
    const huge = binaryDocument(17 * 1024 * 1024);
    client.send(opMsg(30, { insert: 'big', $db: 'wire' }, { sequences: { documents: [huge] } }));
    const reply = await client.read();
    expect(reply!.doc).toMatchObject({ ok: 0, code: 10334, codeName: 'BSONObjectTooLarge' });
    client.send(opMsg(31, { count: 'big', $db: 'wire' }));
    expect((await client.read())!.doc).toMatchObject({ n: 0, ok: 1 });
    await expectHealthy();
  });
});

/**
 * Throughput of the embedded server through mongoose: inserts, find-by-id and conditional $inc, each run
 * sequentially (one awaited call at a time) and with concurrent workers. Prints a table of ops/s.
 *   node dist/bench/mongoose-bench.js [--seconds 3] [--concurrency 16]
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import mongoose from 'mongoose';
import { startEmbeddedMongo } from '../server';
import { describeCpu } from '@productgen/host-cpu';

interface Result {
  name: string;
  ops: number;
  seconds: number;
}

/** Runs `op` from `workers` loops until `seconds` elapse; returns completed operations. */
async function measure(
  name: string,
  seconds: number,
  workers: number,
  op: (i: number) => Promise<unknown>,
): Promise<Result> {
  const deadline = performance.now() + seconds * 1000;
  const start = performance.now();
  let ops = 0;
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (performance.now() < deadline) await op(ops++);
    }),
  );
  return { name, ops, seconds: (performance.now() - start) / 1000 };
}

function printTable(results: Result[]): void {
  const rows = results.map((r) => [
    r.name,
    String(r.ops),
    r.seconds.toFixed(2),
    Math.round(r.ops / r.seconds).toLocaleString('en-US'),
  ]);
  const headers = ['operation', 'ops', 'seconds', 'ops/s'];
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((row) => (row[i] as string).length)));
  const line = (cells: string[]): string =>
    cells
      .map((cell, i) => (i === 0 ? cell.padEnd(widths[i] as number) : cell.padStart(widths[i] as number)))
      .join('  ');
  console.log(line(headers));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<void> {
  console.log(describeCpu());
  const { values } = parseArgs({
    options: { seconds: { type: 'string', default: '3' }, concurrency: { type: 'string', default: '16' } },
  });
  const seconds = Number(values.seconds);
  const concurrency = Number(values.concurrency);
  const dbPath = await mkdtemp(join(tmpdir(), 'embedded-mongo-bench-'));
  const server = await startEmbeddedMongo({ dbPath });
  const connection = await mongoose.createConnection(`${server.url}/bench`).asPromise();
  try {
    const Account = connection.model(
      'Account',
      new mongoose.Schema({ owner: { type: String, required: true }, balance: { type: Number, required: true } }),
    );
    await Account.init();
    const ids: mongoose.Types.ObjectId[] = [];
    const insert = async (i: number): Promise<void> => {
      const doc = await Account.create({ owner: `user-${i}`, balance: 1_000_000 });
      ids.push(doc._id);
    };
    const pick = (i: number): mongoose.Types.ObjectId => ids[i % ids.length] as mongoose.Types.ObjectId;
    const findById = (i: number): Promise<unknown> => Account.findById(pick(i)).lean().exec();
    const conditionalInc = (i: number): Promise<unknown> =>
      Account.updateOne({ _id: pick(i), balance: { $gte: 1 } }, { $inc: { balance: -1 } }).exec();

    const results: Result[] = [];
    results.push(await measure('insert (sequential)', seconds, 1, insert));
    results.push(await measure(`insert (${concurrency} concurrent)`, seconds, concurrency, insert));
    results.push(await measure('find-by-id (sequential)', seconds, 1, findById));
    results.push(await measure(`find-by-id (${concurrency} concurrent)`, seconds, concurrency, findById));
    results.push(await measure('conditional $inc (sequential)', seconds, 1, conditionalInc));
    results.push(await measure(`conditional $inc (${concurrency} concurrent)`, seconds, concurrency, conditionalInc));
    console.log(`embedded-mongo + mongoose ${mongoose.version}, ${ids.length} documents, node ${process.version}`);
    printTable(results);
  } finally {
    await connection.close();
    await server.stop();
    await rm(dbPath, { recursive: true, force: true });
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});

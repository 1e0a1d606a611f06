import { type FileHandle, mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { Logger } from '../logger';
import type { Doc } from '../values';
import type { JournalRecord, StorageEngine } from './engine';
import { frameRecord, parseRecords } from './journal-file';

const SNAPSHOT_END_MARKER = 'end';
const LOCK_FILE = 'embedded-mongo.lock';
const SNAPSHOT_CHUNK_BYTES = 1 << 20;
const FILE_PATTERN = /^(journal|snapshot)-(\d+)\.(log|snap)$/;

export interface PersistenceOptions {
  dbPath: string;
  logger: Logger;
  /** Compact once the journal grows past max(this, last snapshot size). */
  compactionThresholdBytes?: number;
  compactionCheckIntervalMs?: number;
}

interface Waiter {
  seq: number;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** dbPaths opened by this process, so two servers in one process cannot share a directory either. */
const openPaths = new Set<string>();

/**
 * Durability for the storage engine. Every change is framed into `journal-<gen>.log`; `sync()` resolves once all
 * changes appended so far are fsynced. Concurrent writers share one write+fsync (group commit). Compaction writes
 * the whole state to `snapshot-<gen+1>.snap` while new changes go to `journal-<gen+1>.log`, then drops older files.
 * Recovery = newest complete snapshot + every journal of that generation or later, stopping at a torn record.
 */
export class Persistence {
  private gen: number;
  private handle: FileHandle | undefined;
  private handleGen = -1;
  private handleBytes = 0;
  private queue: { gen: number; buf: Buffer }[] = [];
  private appendedSeq = 0;
  private durableSeq = 0;
  private waiters: Waiter[] = [];
  private flushing: Promise<void> | undefined;
  private compaction: Promise<void> | undefined;
  private journalBytes = 0;
  private snapshotBytes = 0;
  private readonly timer: NodeJS.Timeout;
  private closed = false;

  private constructor(
    private readonly engine: StorageEngine,
    private readonly options: PersistenceOptions,
    gen: number,
  ) {
    this.gen = gen;
    const interval = options.compactionCheckIntervalMs ?? 30_000;
    this.timer = setInterval(() => this.compactIfLarge(), interval);
    this.timer.unref();
  }

  static async open(engine: StorageEngine, options: PersistenceOptions): Promise<Persistence> {
    const dbPath = options.dbPath;
    await mkdir(dbPath, { recursive: true });
    await acquireLock(dbPath);
    try {
      const gen = await recover(engine, dbPath, options.logger);
      const persistence = new Persistence(engine, options, gen);
      engine.setJournalSink((record) => persistence.append(record));
      await persistence.compact();
      return persistence;
    } catch (error) {
      await releaseLock(dbPath);
      throw error;
    }
  }

  append(record: JournalRecord): void {
    const buf = frameRecord(record as unknown as Doc);
    this.queue.push({ gen: this.gen, buf });
    this.appendedSeq++;
    this.journalBytes += buf.length;
    this.scheduleFlush();
  }

  /** Resolves when every change appended before the call is on disk. */
  sync(): Promise<void> {
    if (this.durableSeq >= this.appendedSeq) return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.waiters.push({ seq: this.appendedSeq, resolve, reject });
      this.scheduleFlush();
    });
  }

  compact(): Promise<void> {
    this.compaction ??= this.writeSnapshot().finally(() => (this.compaction = undefined));
    return this.compaction;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    try {
      await this.compaction?.catch((error: unknown) => this.options.logger.error('journal compaction failed', error));
      await this.sync();
      await this.flushing;
    } finally {
      this.engine.setJournalSink(undefined);
      await this.handle?.close().catch(() => undefined);
      this.handle = undefined;
      await releaseLock(this.options.dbPath);
    }
  }

  private compactIfLarge(): void {
    const threshold = Math.max(this.options.compactionThresholdBytes ?? 64 * 1024 * 1024, this.snapshotBytes);
    if (this.journalBytes <= threshold || this.closed) return;
    this.compact().catch((error: unknown) => this.options.logger.error('journal compaction failed', error));
  }

  private scheduleFlush(): void {
    if (this.flushing) return;
    this.flushing = this.flushLoop().finally(() => {
      this.flushing = undefined;
      if (this.queue.length || this.waiters.length) this.scheduleFlush();
    });
  }

  private async flushLoop(): Promise<void> {
    // Let every request that arrived in this I/O round append first, so they share one fsync.
    await new Promise<void>((resolve) => setImmediate(resolve));
    while (this.queue.length) {
      const batch = this.queue;
      this.queue = [];
      const upto = this.appendedSeq;
      try {
        let start = 0;
        while (start < batch.length) {
          const gen = (batch[start] as { gen: number }).gen;
          let end = start;
          while (end < batch.length && (batch[end] as { gen: number }).gen === gen) end++;
          await this.writeToJournal(gen, Buffer.concat(batch.slice(start, end).map((entry) => entry.buf)));
          start = end;
        }
        await this.handle?.datasync();
        this.settleWaiters(upto);
      } catch (error) {
        this.options.logger.error('journal write failed', error);
        this.failWaiters(upto, error instanceof Error ? error : new Error(String(error)));
      }
    }
    this.settleWaiters(this.appendedSeq);
  }

  private async writeToJournal(gen: number, data: Buffer): Promise<void> {
    if (this.handleGen !== gen || !this.handle) {
      if (this.handle) {
        await this.handle.datasync();
        await this.handle.close();
      }
      this.handle = await open(journalPath(this.options.dbPath, gen), 'a');
      this.handleGen = gen;
      this.handleBytes = (await this.handle.stat()).size;
      await fsyncDir(this.options.dbPath);
    }
    const handle = this.handle;
    try {
      let written = 0;
      while (written < data.length) {
        const { bytesWritten } = await handle.write(data, written, data.length - written);
        written += bytesWritten;
      }
      this.handleBytes += data.length;
    } catch (error) {
      // Cut a partial write off so later records are not hidden behind a garbled one.
      await handle.truncate(this.handleBytes).catch(() => undefined);
      throw error;
    }
  }

  private settleWaiters(upto: number): void {
    this.durableSeq = Math.max(this.durableSeq, upto);
    const pending: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.seq <= this.durableSeq) waiter.resolve();
      else pending.push(waiter);
    }
    this.waiters = pending;
  }

  private failWaiters(upto: number, error: Error): void {
    const pending: Waiter[] = [];
    for (const waiter of this.waiters) {
      if (waiter.seq <= upto) waiter.reject(error);
      else pending.push(waiter);
    }
    this.waiters = pending;
  }

  private async writeSnapshot(): Promise<void> {
    const dbPath = this.options.dbPath;
    const state = this.engine.captureState();
    const gen = ++this.gen;
    this.journalBytes = 0;
    const finalPath = snapshotPath(dbPath, gen);
    const tmpPath = `${finalPath}.tmp`;
    const handle = await open(tmpPath, 'w');
    let size = 0;
    try {
      let chunk: Buffer[] = [];
      let chunkBytes = 0;
      const push = async (record: Doc): Promise<void> => {
        const buf = frameRecord(record);
        chunk.push(buf);
        chunkBytes += buf.length;
        if (chunkBytes >= SNAPSHOT_CHUNK_BYTES) await drain();
      };
      const drain = async (): Promise<void> => {
        const data = Buffer.concat(chunk);
        chunk = [];
        chunkBytes = 0;
        let written = 0;
        while (written < data.length) {
          written += (await handle.write(data, written, data.length - written)).bytesWritten;
        }
        size += data.length;
      };
      for (const record of state.header) await push(record as unknown as Doc);
      for (const { db, coll, docs } of state.docs) {
        for (const doc of docs) await push({ op: 'put', db, coll, doc });
      }
      await push({ op: SNAPSHOT_END_MARKER });
      await drain();
      await handle.datasync();
    } finally {
      await handle.close();
    }
    await rename(tmpPath, finalPath);
    await fsyncDir(dbPath);
    this.snapshotBytes = size;
    await removeGenerationsBefore(dbPath, gen);
  }
}

function journalPath(dbPath: string, gen: number): string {
  return join(dbPath, `journal-${gen}.log`);
}

function snapshotPath(dbPath: string, gen: number): string {
  return join(dbPath, `snapshot-${gen}.snap`);
}

async function listGenerations(dbPath: string): Promise<{ journals: number[]; snapshots: number[]; temps: string[] }> {
  const journals: number[] = [];
  const snapshots: number[] = [];
  const temps: string[] = [];
  for (const name of await readdir(dbPath)) {
    if (name.endsWith('.tmp')) temps.push(name);
    const match = FILE_PATTERN.exec(name);
    if (!match) continue;
    (match[1] === 'journal' ? journals : snapshots).push(Number(match[2]));
  }
  const ascending = (a: number, b: number): number => a - b;
  return { journals: journals.sort(ascending), snapshots: snapshots.sort(ascending), temps };
}

/** Rebuilds the engine from disk; returns the highest generation seen. */
async function recover(engine: StorageEngine, dbPath: string, logger: Logger): Promise<number> {
  const { journals, snapshots, temps } = await listGenerations(dbPath);
  for (const temp of temps) await unlink(join(dbPath, temp)).catch(() => undefined);
  let baseGen = 0;
  for (const gen of [...snapshots].reverse()) {
    const { records, truncated } = parseRecords(await readFile(snapshotPath(dbPath, gen)));
    const last = records[records.length - 1];
    if (truncated || last?.op !== SNAPSHOT_END_MARKER) {
      logger.warn(`ignoring incomplete snapshot ${snapshotPath(dbPath, gen)}`);
      continue;
    }
    for (const record of records.slice(0, -1)) engine.applyRecord(record as unknown as JournalRecord);
    baseGen = gen;
    break;
  }
  for (const gen of journals) {
    if (gen < baseGen) continue;
    const path = journalPath(dbPath, gen);
    const { records, truncated, validBytes } = parseRecords(await readFile(path));
    for (const record of records) engine.applyRecord(record as unknown as JournalRecord);
    if (truncated) logger.warn(`ignored a torn tail after byte ${validBytes} of ${path}`);
  }
  return Math.max(baseGen, ...journals, ...snapshots);
}

async function removeGenerationsBefore(dbPath: string, gen: number): Promise<void> {
  const { journals, snapshots } = await listGenerations(dbPath);
  for (const old of journals.filter((g) => g < gen)) await unlink(journalPath(dbPath, old)).catch(() => undefined);
  for (const old of snapshots.filter((g) => g < gen)) await unlink(snapshotPath(dbPath, old)).catch(() => undefined);
}

async function fsyncDir(dir: string): Promise<void> {
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

async function acquireLock(dbPath: string): Promise<void> {
  const lockPath = join(dbPath, LOCK_FILE);
  if (openPaths.has(lockPath)) throw new Error(`dbPath ${dbPath} is already in use by this process`);
  const holder = Number((await readFile(lockPath, 'utf8').catch(() => '')).trim());
  if (holder && holder !== process.pid && isProcessAlive(holder)) {
    throw new Error(`dbPath ${dbPath} is in use by process ${holder}`);
  }
  const handle = await open(lockPath, 'w');
  await handle.writeFile(String(process.pid));
  await handle.close();
  openPaths.add(lockPath);
}

async function releaseLock(dbPath: string): Promise<void> {
  const lockPath = join(dbPath, LOCK_FILE);
  openPaths.delete(lockPath);
  await unlink(lockPath).catch(() => undefined);
}

function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

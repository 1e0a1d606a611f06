import type { MessageBus } from '@productgen/bus';
import { parseMessage, topics } from '@productgen/contracts';
import type { Logger, ObjectStore } from '@productgen/service-kit';
import type { BillingClient } from './clients/billing';
import type { CreationFlow } from './creation';
import type { GenerationRepository } from './data/generation-repository';
import type { GenerationDocument } from './data/schemas';
import { decideReserving, decideStuck, GIVEN_UP_MESSAGE, type ReservingStep, type StuckStep } from './domain/sweep';
import { objectKeys } from './domain/generation';
import { generationQueues } from './messaging/render-worker';
import type { Settlement } from './settlement';

export interface SweeperDeps {
  generations: GenerationRepository;
  creation: CreationFlow;
  settlement: Settlement;
  billing: BillingClient;
  bus: MessageBus;
  objectStore: ObjectStore;
  logger: Logger;
  now: () => Date;
}

export interface SweeperOptions {
  /** How long this sweeper holds a generation it works on (and waits before retrying one whose step failed). */
  leaseMs: number;
  /** Re-queues of a stuck job before it is given up. */
  maxRequeues: number;
  /** Most generations of each kind handled per sweep. */
  batch: number;
}

/** What one sweep did, for the log and the tests. */
export interface SweepReport {
  deadLetters: number;
  reserving: Partial<Record<ReservingStep, number>>;
  stuck: Partial<Record<StuckStep, number>>;
  /** Analysed photos nobody created from, removed with their files. */
  expired: number;
  errors: number;
}

const count = <Key extends string>(tally: Partial<Record<Key, number>>, key: Key) => {
  tally[key] = (tally[key] ?? 0) + 1;
};

/**
 * Finishes generations whose process stopped half-way (DESIGN §4). Every API and worker process runs one; each step
 * takes its generation by a conditional update with a lease (`claimForSweep`), so two sweepers never work on the
 * same generation at once, and one that dies lets its lease run out for the next. What it does:
 * - dead-lettered render jobs: re-queued while re-queues are left, else given up (as a stuck generation);
 * - `reserving` past RESERVING_TIMEOUT_MS: billing says whether the credits were taken; queue, or fail uncharged;
 * - `pending`/`processing` past their deadline: publish the unconfirmed job, settle, re-queue, or give up;
 * - `analyzed` past `expires_at` (never created from): its files, then its record, are removed.
 * A step that fails (billing or the broker down) is left for the next sweep once the lease has run out.
 */
export class Sweeper {
  constructor(
    private readonly deps: SweeperDeps,
    private readonly options: SweeperOptions,
  ) {}

  async sweep(): Promise<SweepReport> {
    const report: SweepReport = { deadLetters: 0, reserving: {}, stuck: {}, expired: 0, errors: 0 };
    await this.drainDeadLetters(report);
    for (let taken = 0; taken < this.options.batch; taken += 1) {
      const generation = await this.claim(['reserving']);
      if (!generation) break;
      await this.attempt(report, generation, async () =>
        count(report.reserving, await this.finishReserving(generation)),
      );
    }
    for (let taken = 0; taken < this.options.batch; taken += 1) {
      const generation = await this.claim(['pending', 'processing']);
      if (!generation) break;
      await this.attempt(report, generation, async () => count(report.stuck, await this.finishStuck(generation)));
    }
    for (const generation of await this.deps.generations.findExpiredAnalysed(this.deps.now(), this.options.batch)) {
      await this.attempt(report, generation, async () => {
        if (await this.removeExpired(generation)) report.expired += 1;
      });
    }
    return report;
  }

  /**
   * Files first, then the record, so a process stopping half-way leaves the record for the next sweep (an expired
   * photo can no longer be claimed, so nothing reads the files meanwhile). A correction saved in between is caught
   * from the removed record. Only the generation's own files go: a copy made from a used photo shares its original.
   * Both steps may run twice (two sweepers): removing is idempotent.
   */
  private async removeExpired(generation: GenerationDocument): Promise<boolean> {
    const removeFilesOf = async (record: GenerationDocument) => {
      const own = `generations/${record.uuid}/`;
      const keys = [record.original_key, objectKeys.analysisMatte(record.uuid), record.cutout?.key];
      for (const key of new Set(keys)) if (key?.startsWith(own)) await this.deps.objectStore.remove(key);
    };
    await removeFilesOf(generation);
    const removed = await this.deps.generations.removeAnalysed(generation.uuid);
    if (removed && removed.cutout?.key !== generation.cutout?.key) await removeFilesOf(removed);
    return removed !== null;
  }

  private claim(stages: GenerationDocument['stage'][]): Promise<GenerationDocument | null> {
    const now = this.deps.now();
    return this.deps.generations.claimForSweep(stages, now, new Date(now.getTime() + this.options.leaseMs));
  }

  private async attempt(report: SweepReport, generation: GenerationDocument, step: () => Promise<void>) {
    try {
      await step();
    } catch (error) {
      report.errors += 1;
      this.deps.logger.warn({ err: error, generation: generation.uuid }, 'sweep step failed; the next sweep retries');
    }
  }

  private async finishReserving(generation: GenerationDocument): Promise<ReservingStep> {
    const reservation = await this.deps.billing.reservationState(generation.user_id, generation.uuid);
    const step = decideReserving(reservation.state);
    if (step === 'queue') {
      const queued = await this.deps.generations.markQueued(generation, {
        watermark: reservation.watermark,
        now: this.deps.now(),
        sweepAfter: new Date(this.deps.now().getTime() + this.options.leaseMs),
      });
      if (queued) await this.deps.creation.publishJob(queued);
    } else if (step === 'fail') {
      await this.deps.settlement.failUncharged(generation);
    }
    this.deps.logger.info({ generation: generation.uuid, billing: reservation.state, step }, 'stuck creation swept');
    return step;
  }

  private async finishStuck(generation: GenerationDocument): Promise<StuckStep> {
    const step = decideStuck(
      {
        jobPublished: generation.job_published_at !== null,
        requeues: generation.requeues,
        images: generation.images,
      },
      this.options.maxRequeues,
    );
    this.deps.logger.info({ generation: generation.uuid, stage: generation.stage, step }, 'stuck generation swept');
    switch (step) {
      case 'publish':
        await this.deps.creation.publishJob(generation);
        break;
      case 'requeue':
        await this.deps.generations.countRequeue(generation.uuid);
        await this.deps.creation.publishJob(generation);
        break;
      case 'settle':
        await this.deps.settlement.settle(generation.uuid);
        break;
      case 'give-up':
        await this.deps.settlement.giveUp(generation.uuid, GIVEN_UP_MESSAGE);
        break;
    }
    return step;
  }

  /**
   * Dead-lettered render jobs: their deliveries ran out. A render job resumes where it stopped and its writes are
   * idempotent, so running out of deliveries says the job's consumers kept stopping (worker kills, broker restarts, a
   * data store away), not that the job is bad: it gets the stuck generation's decision (re-queued while re-queues are
   * left, given up after), so a job that crashes every worker still ends, after (MAX_REQUEUES + 1) × deliveries. A
   * step that fails leaves its debts on the generation for the stuck sweep, so taking the letter off loses nothing.
   */
  private async drainDeadLetters(report: SweepReport): Promise<void> {
    const letters = await this.deps.bus.takeDeadLetters(generationQueues.render, { limit: this.options.batch });
    for (const letter of letters) {
      report.deadLetters += 1;
      let uuid: string;
      try {
        uuid = parseMessage(topics.generationRequested, letter.message.payload).generation_uuid;
      } catch (error) {
        this.deps.logger.error(
          { err: error, message: letter.message.id },
          'unreadable dead-lettered render job dropped',
        );
        continue;
      }
      this.deps.logger.warn({ generation: uuid, reason: letter.reason }, 'dead-lettered render job');
      try {
        const generation = await this.deps.generations.findLive(uuid);
        if (generation) count(report.stuck, await this.finishStuck(generation));
      } catch (error) {
        report.errors += 1;
        this.deps.logger.warn({ err: error, generation: uuid }, 'dead-lettered job not settled yet; the sweep retries');
      }
    }
  }
}

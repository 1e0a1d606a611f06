import type { BulkJob } from '@productgen/contracts';
import type { Logger } from '@productgen/service-kit';
import type { GenerationClient } from './clients/generation';
import type { JobRepository } from './data/job-repository';
import type { JobDocument } from './data/models';
import { computeProgress, jobView, type JobGeneration } from './domain/job';

/**
 * Runs a keyed piece of work one at a time per key and at most once per `minIntervalMs`; the asks that come while a
 * run waits share it. Each ask's promise settles with a run that started after the ask, so nothing asked for is
 * skipped, only merged.
 */
export class PacedRuns {
  /** Per key: the run that has not started yet (asks join it) and the last one started. */
  private readonly waiting = new Map<string, Promise<void>>();
  private readonly last = new Map<string, { startedAt: number; done: Promise<void> }>();

  constructor(
    private readonly work: (key: string) => Promise<void>,
    private readonly minIntervalMs: number,
  ) {}

  ask(key: string): Promise<void> {
    const waiting = this.waiting.get(key);
    if (waiting) return waiting;
    const previous = this.last.get(key);
    const run = (async () => {
      // Always awaits (a microtask without a previous run), so the run is registered as waiting before it starts.
      await previous?.done.catch(() => undefined);
      // A timer counts from the event loop's cached clock (whole milliseconds), so it may fire up to ~1 ms before
      // the interval is over by performance.now(): wait again for what is left.
      const left = () => (previous ? previous.startedAt + this.minIntervalMs - performance.now() : 0);
      for (let wait = left(); wait > 0; wait = left()) {
        await new Promise((resolve) => setTimeout(resolve, Math.ceil(wait)));
      }
      this.waiting.delete(key);
      const started = { startedAt: performance.now(), done: this.work(key) };
      this.last.set(key, started);
      try {
        await started.done;
      } finally {
        // Forgotten once its interval is over: a key asked for again later runs at once.
        setTimeout(() => {
          if (this.last.get(key) === started) this.last.delete(key);
        }, this.minIntervalMs).unref();
      }
    })();
    this.waiting.set(key, run);
    return run;
  }
}

/**
 * Brings a job's progress up to date from generation's records (the source of truth), so a lost or repeated
 * message, a restart or two processes refreshing at once all end in the same numbers. Messages trigger a refresh
 * at once; a periodic poll catches whatever no message announced.
 */
export class ProgressTracker {
  /**
   * The refreshes messages ask for, at most one per job every `refreshIntervalMs`: a refresh reads all of the job's
   * generations, and a 1000-image batch sends ~1200 messages, so one refresh per message grew with the square of
   * the batch (`bench:bulk`: ~1.2 refreshes of 200 generations per finished image).
   */
  private readonly paced: PacedRuns;

  constructor(
    private readonly deps: {
      jobs: JobRepository;
      generation: GenerationClient;
      logger: Logger;
      now: () => Date;
      refreshIntervalMs: number;
    },
  ) {
    this.paced = new PacedRuns((uuid) => this.refreshByUuid(uuid), deps.refreshIntervalMs);
  }

  async generationsOf(job: JobDocument): Promise<JobGeneration[]> {
    const { generations } = await this.deps.generation.api.listBulkGenerations({
      params: { userId: job.user_id, bulkJobUuid: job.uuid },
    });
    return generations;
  }

  /** Records the job's progress (and outcome once every product is done); answers the job as it is now. */
  async refresh(job: JobDocument, generations?: readonly JobGeneration[]): Promise<JobDocument> {
    if (job.stage === 'completed' || job.stage === 'failed' || job.stage === 'reserving') return job;
    const current = generations ?? (await this.generationsOf(job));
    const progress = computeProgress(job, current);
    await this.deps.jobs.recordProgress(job.uuid, {
      generationsDone: progress.generationsDone,
      counts: progress.counts,
      thumbnails: progress.thumbnails,
      finished: progress.outcome && { ...progress.outcome, at: this.deps.now() },
    });
    if (progress.outcome) {
      this.deps.logger.info({ job: job.uuid, outcome: progress.outcome.stage }, 'batch job finished');
    }
    return (await this.deps.jobs.findByUuid(job.uuid)) ?? job;
  }

  async refreshByUuid(uuid: string): Promise<void> {
    const job = await this.deps.jobs.findByUuid(uuid);
    if (job) await this.refresh(job);
  }

  /** A refresh of the job that starts after this call, shared with the other calls made before it starts. */
  refreshSoon(uuid: string): Promise<void> {
    return this.paced.ask(uuid);
  }

  /** The job page's answer: progress brought up to date with the same generations it shows. */
  async view(job: JobDocument): Promise<BulkJob> {
    if (job.stage === 'reserving') return jobView(job, []);
    const generations = await this.generationsOf(job);
    return jobView(await this.refresh(job, generations), generations);
  }
}

import type { BulkJob } from '@productgen/contracts';
import type { Logger } from '@productgen/service-kit';
import type { GenerationClient } from './clients/generation';
import type { GenerationEvent, JobRepository } from './data/job-repository';
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

/** Times a refresh reads the job again when the job changed between its read and its write. */
const MAX_REFRESH_ATTEMPTS = 5;

/**
 * Keeps a job's progress from generation's messages (`generation.image_completed`, `.completed`, `.failed`): each is
 * recorded on the job (idempotently, in any order), then the job's progress is computed from that record, locally:
 * bulk never reads progress back from generation. The job page still reads the job's generations (their images and
 * originals) to show them.
 */
export class ProgressTracker {
  /**
   * The refreshes messages ask for, at most one per job every `refreshIntervalMs`: a 1000-image batch sends ~1200
   * messages, and each refresh reads and writes the whole job document.
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

  /** The job's generations as generation lists them (images, originals): what the job page and Download All show. */
  async generationsOf(job: JobDocument): Promise<JobGeneration[]> {
    const { generations } = await this.deps.generation.api.listBulkGenerations({
      params: { userId: job.user_id, bulkJobUuid: job.uuid },
    });
    return generations;
  }

  /** Records one of generation's messages on its job; false when there is no such job of the user. */
  record(event: GenerationEvent): Promise<boolean> {
    return this.deps.jobs.recordGenerationEvent(event);
  }

  /**
   * Records the job's progress (and outcome once every product is done) computed from the job as stored; answers the
   * job as it is now. A change between the read and the write (another message, another process) makes it read again.
   */
  async refresh(job: JobDocument): Promise<JobDocument> {
    let current: JobDocument | null = job;
    for (let attempt = 0; current && attempt < MAX_REFRESH_ATTEMPTS; attempt += 1) {
      if (current.stage === 'completed' || current.stage === 'failed' || current.stage === 'reserving') return current;
      const progress = computeProgress(current);
      const recorded = await this.deps.jobs.recordProgress(current.uuid, current.progress_rev ?? 0, {
        generationsDone: progress.generationsDone,
        counts: progress.counts,
        thumbnails: progress.thumbnails,
        finished: progress.outcome && { ...progress.outcome, at: this.deps.now() },
      });
      if (recorded && progress.outcome) {
        this.deps.logger.info({ job: current.uuid, outcome: progress.outcome.stage }, 'batch job finished');
      }
      const fresh: JobDocument | null = await this.deps.jobs.findByUuid(current.uuid);
      if (recorded) return fresh ?? current;
      current = fresh;
    }
    return current ?? job;
  }

  async refreshByUuid(uuid: string): Promise<void> {
    const job = await this.deps.jobs.findByUuid(uuid);
    if (job) await this.refresh(job);
  }

  /** A refresh of the job that starts after this call, shared with the other calls made before it starts. */
  refreshSoon(uuid: string): Promise<void> {
    return this.paced.ask(uuid);
  }

  /** The job page's answer: the job's progress as recorded, with the generations it shows. */
  async view(job: JobDocument): Promise<BulkJob> {
    if (job.stage === 'reserving') return jobView(job, []);
    return jobView(job, await this.generationsOf(job));
  }
}

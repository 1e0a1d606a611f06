import type { BulkJob } from '@productgen/contracts';
import type { Logger } from '@productgen/service-kit';
import type { GenerationClient } from './clients/generation';
import type { JobRepository } from './data/job-repository';
import type { JobDocument } from './data/models';
import { computeProgress, jobView, type JobGeneration } from './domain/job';

/**
 * Brings a job's progress up to date from generation's records (the source of truth), so a lost or repeated
 * message, a restart or two processes refreshing at once all end in the same numbers. Messages trigger a refresh
 * at once; a periodic poll catches whatever no message announced.
 */
export class ProgressTracker {
  constructor(
    private readonly deps: {
      jobs: JobRepository;
      generation: GenerationClient;
      logger: Logger;
      now: () => Date;
    },
  ) {}

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

  /** The job page's answer: progress brought up to date with the same generations it shows. */
  async view(job: JobDocument): Promise<BulkJob> {
    if (job.stage === 'reserving') return jobView(job, []);
    const generations = await this.generationsOf(job);
    return jobView(await this.refresh(job, generations), generations);
  }
}

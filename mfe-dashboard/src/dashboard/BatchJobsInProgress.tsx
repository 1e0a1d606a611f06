import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { usePlatformClient, type BulkJobStatus, type BulkJobSummary } from '@productgen/platform-client';
import { ProgressBar } from '@productgen/ui-kit';
import { formatLogDate } from './credit-format';
import styles from './DashboardPage.module.css';

/** SPEC §4: on the dashboard, in-progress jobs are the pending and processing ones. */
export const IN_PROGRESS_STATUSES: BulkJobStatus[] = ['pending', 'processing'];
/** SPEC §2: up to 3 thumbnails per card. */
export const JOB_THUMBNAIL_COUNT = 3;
/** The same pace as the job page's polling (SPEC §4: every 10 s). */
export const JOBS_POLL_INTERVAL_MS = 10_000;

/** Products the machine was unsure of wait for the seller's check before they render. */
export const NEEDS_CHECK_LABEL = 'Needs your check';

const STATUS_LABELS: Record<string, string> = { pending: 'Pending', processing: 'Processing' };

/**
 * The running batches, polled while any is running so the cards follow them; polling stops once none is left
 * (a new batch is started from another page, which remounts the dashboard on the way back). A failed fetch shows
 * no cards: the rest of the dashboard stays useful.
 */
export function useJobsInProgress(onAllFinished?: () => void): BulkJobSummary[] {
  const client = usePlatformClient();
  const [jobs, setJobs] = useState<BulkJobSummary[]>([]);

  useEffect(() => {
    let current = true;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let hadJobs = false;
    const poll = () => {
      client.bulkJobs(IN_PROGRESS_STATUSES).then(
        (list) => {
          if (!current) return;
          setJobs(list);
          if (list.length > 0) timer = setTimeout(poll, JOBS_POLL_INTERVAL_MS);
          else if (hadJobs) onAllFinished?.();
          hadJobs = list.length > 0;
        },
        () => current && setJobs([]),
      );
    };
    poll();
    return () => {
      current = false;
      clearTimeout(timer);
    };
    // The callback only signals; a new identity must not restart polling.
  }, [client]);

  return jobs;
}

function JobCard({ job }: { job: BulkJobSummary }) {
  const client = usePlatformClient();
  const created = formatLogDate(job.created_at);
  const status = STATUS_LABELS[job.status] ?? 'Unknown';
  const thumbnails = (job.thumbnails ?? []).slice(0, JOB_THUMBNAIL_COUNT);
  const waiting = job.counts?.waiting_for_check ?? 0;
  return (
    <li className={styles.jobCard}>
      <Link to={`/job/${encodeURIComponent(job.bulk_job_uuid)}`} className={styles.jobLink}>
        <span className={styles.jobThumbnails}>
          {/* Decorative: the link's text names the job. */}
          {thumbnails.map((thumbnail) => (
            <img key={thumbnail} src={client.assetUrl(thumbnail)} alt="" className={styles.jobThumbnail} />
          ))}
        </span>
        <span className={styles.jobTitle}>Batch of {created}</span>
      </Link>
      <span className={styles.jobStatus}>{status}</span>
      {waiting > 0 && (
        // The job page opens its check screen at #check.
        <Link to={`/job/${encodeURIComponent(job.bulk_job_uuid)}#check`} className={styles.jobCheck}>
          {NEEDS_CHECK_LABEL}: {waiting === 1 ? '1 product' : `${waiting} products`}
        </Link>
      )}
      <ProgressBar
        value={job.generations_done}
        max={job.generations_total}
        ariaLabel={`Progress of the batch of ${created}`}
        valueText={`${job.generations_done} / ${job.generations_total}`}
      />
    </li>
  );
}

/** SPEC §2: Batch Jobs In Progress, one card per running job linking to its job page; absent when none runs. */
export function BatchJobsInProgress({ onAllFinished }: { onAllFinished?: () => void }) {
  const jobs = useJobsInProgress(onAllFinished);
  if (jobs.length === 0) return null;
  return (
    <section className={styles.section} aria-labelledby="batch-jobs-heading">
      <h2 id="batch-jobs-heading" className={styles.sectionTitle}>
        Batch Jobs In Progress
      </h2>
      <ul className={styles.cards}>
        {jobs.map((job) => (
          <JobCard key={job.bulk_job_uuid} job={job} />
        ))}
      </ul>
    </section>
  );
}

import clsx from 'clsx';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { PageIntro, routeEntry } from '@productgen/mf-shared';
import { usePlatformClient, useSession, type BulkJob, type PlatformClient } from '@productgen/platform-client';
import { ImageViewer, LinkButton, ProgressBar, Spinner, type ViewerImage } from '@productgen/ui-kit';
import { fixesRunning, loadableSrc } from '../shared/images';
import { ErrorBox, SiteUrlTip, WatermarkNotice } from '../shared/messages';
import { CHECK_TITLE, CheckScreen } from './CheckScreen';
import { GenerationCard } from './GenerationCard';
import { RedoPanel } from './RedoPanel';
import {
  FETCH_FAILED_MESSAGE,
  LOADING_MESSAGE,
  NOT_FOUND_MESSAGE,
  formatCreatedAt,
  jobFinished,
  showsProgressBar,
  statusLabel,
} from './jobStatus';
import { useBulkJob } from './useBulkJob';
import surfaces from '../shared/surfaces.module.css';
import styles from './JobPage.module.css';

export const QUEUED_MESSAGE = 'Your products are queued. Each appears here as its creation starts.';

/** Every created image of the job, in the order the page shows them: what the viewer moves through. */
function viewerImages(job: BulkJob, client: PlatformClient): ViewerImage[] {
  return (job.generations ?? []).flatMap((generation, productIndex) => {
    const product = generation.original_filename || `Product ${productIndex + 1}`;
    return generation.images.map((image, index) => ({
      key: image.id,
      src: loadableSrc(client.assetUrl, image.output_url),
      alt: `${product}, image ${index + 1}`,
      downloadHref: client.downloadUrl('image', generation.generation_uuid, index),
      finishing: fixesRunning(image),
    }));
  });
}

/** /job/{bulk_job_uuid}: a batch job's status, progress and images. */
export function JobPage() {
  const entry = routeEntry('/job/:bulkJobUuid');
  const navigate = useNavigate();
  const { bulkJobUuid = '' } = useParams();
  const { user, loading, signedIn } = useSession();

  // Visitors are sent to the landing page, but only once the session check has answered.
  useEffect(() => {
    if (!loading && !signedIn) navigate('/', { replace: true });
  }, [loading, signedIn, navigate]);

  const load = useBulkJob(bulkJobUuid, Boolean(user));

  let content;
  if (!user || load.state === 'loading') {
    content = (
      <div className={styles.status}>
        <Spinner size="sm" label={null} />
        <p>{LOADING_MESSAGE}</p>
      </div>
    );
  } else if (load.state === 'notFound') {
    content = <p className={styles.status}>{NOT_FOUND_MESSAGE}</p>;
  } else if (load.state === 'failed') {
    content = <ErrorBox message={FETCH_FAILED_MESSAGE} />;
  } else {
    content = (
      <JobView
        job={load.job}
        pollFailed={load.pollFailed}
        showSiteTip={user.flags?.showSiteUrlTooltip === true}
        onChecked={load.refresh}
      />
    );
  }

  // PageIntro: the heading, the lead and the page meta (title, description, canonical).
  return (
    <PageIntro entry={entry}>
      <div className={styles.content}>{content}</div>
    </PageIntro>
  );
}

function JobView({
  job,
  pollFailed,
  showSiteTip,
  onChecked,
}: {
  job: BulkJob;
  pollFailed: boolean;
  showSiteTip: boolean;
  /** A product was checked or redone: the job is fetched again at once. */
  onChecked: () => void;
}) {
  const client = usePlatformClient();
  const [viewing, setViewing] = useState<number | null>(null);
  /** The finished product being corrected for a redo (its generation uuid). */
  const [redoing, setRedoing] = useState<string | null>(null);
  const images = useMemo(() => viewerImages(job, client), [job, client]);
  const finished = jobFinished(job);
  const done = job.generations_done;
  const total = job.generations_total;

  // A finished job has settled its credits (failed images gave theirs back): the top bar refetches the balance.
  const wasFinished = useRef(finished);
  useEffect(() => {
    if (finished && !wasFinished.current) client.refreshUser();
    wasFinished.current = finished;
  }, [client, finished]);

  // Where each generation's images start in the viewer's list.
  let offset = 0;
  const offsets = (job.generations ?? []).map((generation) => {
    const start = offset;
    offset += generation.images.length;
    return start;
  });

  return (
    <div className={styles.job}>
      {pollFailed && <ErrorBox message={FETCH_FAILED_MESSAGE} />}
      <div className={clsx(surfaces.card, styles.summary)}>
        <dl className={styles.facts}>
          <div>
            <dt>Status</dt>
            <dd data-testid="job-status">{statusLabel(job.status)}</dd>
          </div>
          <div>
            <dt>Progress</dt>
            <dd data-testid="job-progress">
              {done}/{total}
            </dd>
          </div>
          {job.counts && (
            <>
              <div>
                <dt>Done</dt>
                <dd data-testid="job-done">{job.counts.done}</dd>
              </div>
              <div>
                <dt>{CHECK_TITLE}</dt>
                <dd data-testid="job-waiting-for-check">{job.counts.waiting_for_check}</dd>
              </div>
              <div>
                <dt>Rendering</dt>
                <dd data-testid="job-rendering">{job.counts.rendering}</dd>
              </div>
              <div>
                <dt>Failed</dt>
                <dd data-testid="job-failed">{job.counts.failed}</dd>
              </div>
            </>
          )}
          <div>
            <dt>Created</dt>
            <dd data-testid="job-created">{formatCreatedAt(job.created_at)}</dd>
          </div>
        </dl>
        <LinkButton href={client.downloadUrl('bulk', job.bulk_job_uuid)} download variant="primary">
          Download All
        </LinkButton>
      </div>
      {(job.counts?.waiting_for_check ?? 0) > 0 && <CheckScreen jobUuid={job.bulk_job_uuid} onChecked={onChecked} />}
      {showsProgressBar(job) && (
        <ProgressBar
          value={done}
          max={total > 0 ? total : 1}
          ariaLabel="Products done"
          valueText={`${done} of ${total} products done`}
        />
      )}
      {(job.has_watermark || (finished && showSiteTip)) && (
        <div className={styles.notices}>
          {job.has_watermark && <WatermarkNotice />}
          {finished && showSiteTip && <SiteUrlTip />}
        </div>
      )}
      {(job.generations ?? []).length === 0 && !finished && <p className={styles.queued}>{QUEUED_MESSAGE}</p>}
      <ul className={styles.generations} aria-label="Products">
        {(job.generations ?? []).map((generation, index) => {
          const product = job.products?.find((candidate) => candidate.generation_uuid === generation.generation_uuid);
          return (
            <li key={generation.generation_uuid || generation.id}>
              <GenerationCard
                generation={generation}
                productIndex={index}
                onOpen={(imageIndex) => setViewing((offsets[index] ?? 0) + imageIndex)}
                onRedo={product ? () => setRedoing(product.generation_uuid) : undefined}
              />
              {product && redoing === product.generation_uuid && (
                <RedoPanel
                  jobUuid={job.bulk_job_uuid}
                  product={product}
                  generation={generation}
                  onCancel={() => setRedoing(null)}
                  onDone={() => {
                    setRedoing(null);
                    onChecked();
                  }}
                />
              )}
            </li>
          );
        })}
      </ul>
      <ImageViewer images={images} index={viewing} onIndex={setViewing} onClose={() => setViewing(null)} />
    </div>
  );
}

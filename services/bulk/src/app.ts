import type { Express, Response } from 'express';
import yazl from 'yazl';
import type { Readable } from 'node:stream';
import { routes, type GenerationObjectRef } from '@productgen/contracts';
import {
  AppError,
  createHttpApp,
  parseRequest,
  requireGatewayUser,
  serveRoute,
  type Logger,
  type ObjectStore,
  type ReadinessCheck,
  type ServiceIdentity,
} from '@productgen/service-kit';
import type { BatchIntake } from './batch-intake';
import { JOB_NOT_FOUND_MESSAGE, type BatchReview } from './batch-review';
import type { JobRepository } from './data/job-repository';
import type { JobDocument } from './data/models';
import { downloadEntries, NOT_INCLUDED_FILENAME, notIncludedNote, publicStatus, summaryView } from './domain/job';
import type { ProgressTracker } from './progress';

export interface BulkAppDeps {
  intake: BatchIntake;
  review: BatchReview;
  jobs: JobRepository;
  progress: ProgressTracker;
  /**
   * Generation's bucket, read only: Download All reads each image's object there, by the reference generation's list
   * gives, instead of streaming it through generation's download route.
   */
  generationImages: ObjectStore;
  readiness: Record<string, ReadinessCheck>;
  logger: Logger;
  /** Verifies every caller (the gateway, other services). */
  serviceIdentity: ServiceIdentity;
}

function attachment(res: Response, filename: string): void {
  res.setHeader('Content-Type', 'application/zip');
  res.setHeader('Content-Disposition', `attachment; filename="${filename}"`);
  res.setHeader('Cache-Control', 'private, no-cache');
  res.setHeader('X-Content-Type-Options', 'nosniff');
}

export function createBulkApp(deps: BulkAppDeps): Express {
  const { intake, review, jobs, progress, generationImages, logger } = deps;
  const app = createHttpApp({ name: 'bulk', logger, readiness: deps.readiness, serviceIdentity: deps.serviceIdentity });

  async function ownedJob(uuid: string, userId: string): Promise<JobDocument> {
    const job = await jobs.findOwned(uuid, userId);
    if (!job) throw AppError.notFound(JOB_NOT_FOUND_MESSAGE);
    return job;
  }

  // The multipart body is never parsed here as a whole: the intake streams it to the object store.
  serveRoute(app, routes.createBulkJob, async (_input, req) => intake.start(req, requireGatewayUser(req)));

  serveRoute(app, routes.getBulkJob, async (input, req) => {
    const userId = requireGatewayUser(req);
    return progress.view(await ownedJob(input.params.id, userId));
  });

  serveRoute(app, routes.listBulkJobs, async (input, req) => {
    const userId = requireGatewayUser(req);
    const wanted = input.query.statuses;
    const found = await jobs.listOwned(userId);
    const listed = wanted && wanted.length > 0 ? found.filter((job) => wanted.includes(publicStatus(job))) : found;
    return { jobs: listed.map(summaryView) };
  });

  serveRoute(app, routes.listBulkChecks, async (input, req) => review.list(input.params.id, requireGatewayUser(req)));

  serveRoute(app, routes.decideBulkCheck, async (input, req) =>
    review.decide(input.params.id, requireGatewayUser(req), input.params.index, input.body),
  );

  serveRoute(app, routes.redoBulkProduct, async (input, req) =>
    review.redo(input.params.id, requireGatewayUser(req), input.params.index, input.body),
  );

  serveRoute(app, routes.removeBulkProduct, async (input, req) =>
    review.remove(input.params.id, requireGatewayUser(req), input.params.index),
  );

  /** One object a download of generation's serves; only in generation's bucket, never another one. */
  async function openSource(source: GenerationObjectRef): Promise<Readable> {
    if (source.bucket !== generationImages.bucket) {
      throw new AppError(502, 'An image of the batch could not be read.', { bucket: source.bucket });
    }
    return generationImages.getObjectStream(source.key);
  }

  app.get(routes.downloadBulkJob.path, async (req, res) => {
    const userId = requireGatewayUser(req);
    const { params, query } = parseRequest(routes.downloadBulkJob, req);
    const job = await ownedJob(params.id, userId);
    const generations = await progress.generationsOf(job);
    const entries = downloadEntries(job, generations, query.originals);
    if (entries.length === 0) throw AppError.notFound('No images to download yet');
    // Streams start one at a time as yazl reaches their entry, so memory stays at one image whatever the job size.
    const zip = new yazl.ZipFile();
    // An entry that cannot be opened is emitted on the zip itself (yazl), not on its output: unhandled, it would end
    // the process; the answer breaks off instead, so a partial zip is never taken for a whole one.
    zip.on('error', (error: Error) => {
      logger.warn({ err: error, job: job.uuid }, 'Download All broken off: an image could not be read');
      res.destroy(error);
    });
    for (const entry of entries) {
      zip.addReadStreamLazy(entry.path, { compress: false }, (callback) => {
        openSource(entry.source).then(
          (stream) => callback(null, stream),
          (error: unknown) => callback(error as Error, undefined as never),
        );
      });
    }
    // What is finished is in the zip; a note says which products are not, and why.
    const note = notIncludedNote(job, entries);
    if (note) zip.addBuffer(Buffer.from(note, 'utf8'), NOT_INCLUDED_FILENAME);
    zip.end();
    zip.outputStream.on('error', (error) => res.destroy(error));
    attachment(res, `productgen-batch-${job.uuid.slice(0, 8)}.zip`);
    zip.outputStream.pipe(res);
  });

  return app.finalize();
}

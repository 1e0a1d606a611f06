export { createBulkService, type BulkService, type BulkServiceDeps } from './service';
export { bulkConfigSchema, distributedBulkConfigSchema, type BulkConfig } from './config';
export { bulkQueues } from './messaging/progress-consumer';

export {
  ConfigError,
  amqpConfig,
  baseConfig,
  devFeaturesEnabled,
  devIdentityProviderConfig,
  envFields,
  exitOnConfigError,
  isDevelopmentMode,
  loadConfig,
  loadConfigOrExit,
  mongoConfig,
  portConfig,
  refuseDevIdentityProviderOutsideDevelopment,
  s3Config,
  telemetryConfig,
  type ConfigProblem,
} from './config';
export { createLogger, type Logger, type LoggerOptions } from './logger';
export { AppError, isErrorBody, statusText, type ErrorBody } from './errors';
export { errorHandler, toAppError } from './error-handler';
export {
  appErrorFromZod,
  describeIssues,
  parseBody,
  parseInput,
  parseParams,
  parseQuery,
  validate,
  type InputPart,
} from './validation';
export { createRouter, routeNotMatched, trackAllowedMethods } from './router';
export { createHttpApp, serviceRequestLog, type HttpApp, type HttpAppOptions } from './http-app';
export { MongoHitCounter, type HitCount } from './hit-counter';
export {
  createServiceIdentity,
  FORGED_USER_MESSAGE,
  INVALID_SERVICE_TOKEN_MESSAGE,
  MISSING_SERVICE_TOKEN_MESSAGE,
  SERVICE_TOKEN_HEADER,
  serviceAuthConfig,
  verifyServiceCalls,
  type ServiceIdentity,
  type VerifiedCaller,
} from './service-identity';
export { checkReadiness, type CheckOutcome, type ReadinessCheck, type ReadinessReport } from './health';
export { REQUEST_ID_HEADER, assignRequestId, contextWithRequestId, currentRequestId } from './request-id';
export { logRequests, type RequestLogOptions } from './request-log';
export { traceRequests } from './request-tracing';
export { DEFAULT_DRAIN_TIMEOUT_MS, drainRequestBody, type DrainLimits } from './request-drain';
export { createLifecycle, type Closer, type Lifecycle, type LifecycleOptions, type RunningServer } from './lifecycle';
export {
  SpanKind,
  SpanStatusCode,
  currentTraceId,
  extractTraceContext,
  getTracer,
  initTelemetry,
  injectTraceHeaders,
  installContextPropagation,
  withSpan,
  type SpanOptions,
  type Telemetry,
  type TelemetryOptions,
} from './telemetry';
export {
  createInternalHttpClient,
  fetchWithTrace,
  type InternalHttpClient,
  type InternalHttpClientOptions,
  type InternalRequestOptions,
  type QueryValue,
} from './http-client';
export {
  USER_ID_HEADER,
  parseRequest,
  reply,
  requireGatewayUser,
  serveRoute,
  type ContractRoute,
  type ParsedRequest,
  type RouteAnswer,
} from './contract-routes';
export { createInternalApiClient, type InternalApiClient } from './internal-api-client';
export { connectMongo, isDuplicateKeyError, redactUrl, type MongoHandle, type MongoOptions } from './mongo';
export { minutesText, UsageQuota, usageWindowModel, type QuotaLimit, type UsageWindowDocument } from './usage-quota';
export {
  PRESIGN_LIMITS,
  createObjectStore,
  type ObjectInfo,
  type ObjectStore,
  type ObjectStoreOptions,
  type PutOptions,
} from './object-store';
export { runServiceProcess, type ServiceProcessConfig, type ServiceProcessContext } from './service-process';
export { runMigration } from './migration';
export { periodicTask, type PeriodicTask, type PeriodicTaskOptions } from './periodic-task';
export { createCrashPoint, type CrashPoint } from './crash-point';
export {
  instrumentBus,
  metricsConfig,
  metricsRegistry,
  recordHttpMetrics,
  recordInfo,
  serveOperations,
} from './metrics';
export { REDACTED_VALUE, isSensitiveParameter, redactSensitiveQuery } from './url-redaction';

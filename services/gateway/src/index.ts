export { createGateway, type Gateway, type GatewayDeps } from './service';
export { gatewayConfigSchema, listenPort, loadGatewayConfig, type GatewayConfig } from './config';
export type { FetchLike } from './session-verifier';
export type { AnalyticsStats, RecordedEvent } from './domain/analytics';

// The light helpers any test may load (node built-ins only). The heavier ones are subpaths of their own, e.g.
// `@productgen/test-kit/mongo-fixture` (see the README).
export { LoopbackServers } from './loopback-servers';
export {
  addGatewayToken,
  behindGateway,
  serviceCallHeaders,
  serviceTokenFor,
  TEST_SERVICE_AUTH_SECRET,
} from './service-auth';
export { TestClock } from './test-clock';
export { collectMessages, pollUntil, waitFor } from './waiting';

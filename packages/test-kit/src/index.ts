export { LoopbackServers } from './loopback-servers';
export {
  addGatewayToken,
  behindGateway,
  serviceCallHeaders,
  serviceTokenFor,
  TEST_SERVICE_AUTH_SECRET,
} from './service-auth';

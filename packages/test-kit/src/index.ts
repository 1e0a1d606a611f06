export { LoopbackServers } from './loopback-servers';

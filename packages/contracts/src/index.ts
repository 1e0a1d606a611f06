export * from './limits';
export * from './packages';
export * from './entities';
export * from './api';
export * from './router';
export * from './validation';
export * from './messages';
export * from './openapi';

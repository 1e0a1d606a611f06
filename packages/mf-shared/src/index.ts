export { setPageMeta, setSiteName, getSiteName, fullTitle, type PageMeta } from './page-meta';
export { usePageMeta } from './use-page-meta';
export { withScopedStyles } from './scoped-styles';
export { OopsScreen, RouteErrorScreen, errorText } from './error-screens';
export { createMfeLifecycles, mfeRouteTree, routesFor, type MfeAppOptions } from './mfe-app';
export { SIGN_IN_REQUEST_EVENT, requestSignIn, onSignInRequest } from './sign-in';
export {
  ROUTE_TABLE,
  MFE_NAMES,
  findRoute,
  routeOwner,
  routesOf,
  routeEntry,
  normalisePath,
  type MfeName,
  type RouteEntry,
} from './routes';
export {
  loadRuntimeConfig,
  loadRemoteRegistry,
  loadStartupConfig,
  parseRuntimeConfig,
  parseRemoteRegistry,
  StartupConfigError,
  type RuntimeConfig,
  type RemoteRegistry,
} from './runtime-config';
export { startStandalone } from './standalone';
export { RoutePage, PageIntro } from './route-page';

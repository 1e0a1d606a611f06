export {
  setPageMeta,
  setSiteName,
  getSiteName,
  fullTitle,
  describePageHead,
  PAGE_JSON_LD_ID,
  type PageMeta,
  type PageHead,
} from './page-meta';
export { usePageMeta } from './use-page-meta';
export { withScopedStyles } from './scoped-styles';
export { OopsScreen, errorText } from './error-screens';
export { createMfeLifecycles, mfeRouteTree, RouteTree, routesFor, appContainerId, type MfeAppOptions } from './mfe-app';
export { SIGN_IN_REQUEST_EVENT, requestSignIn, onSignInRequest } from './sign-in';
export {
  ROUTE_TABLE,
  MFE_NAMES,
  CONTENT_ROUTED_REMOTES,
  parseRoutesManifest,
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
  loadPublishedRoutes,
  routesManifestUrl,
  parseRuntimeConfig,
  parseRemoteRegistry,
  StartupConfigError,
  TRACKING_SCRIPT_KINDS,
  type RuntimeConfig,
  type RemoteRegistry,
  type TrackingScriptKind,
  type TrackingScripts,
} from './runtime-config';
export { startStandalone } from './standalone';
export { RoutePage, PageIntro } from './route-page';

import { createMfeLifecycles } from '@productgen/mf-shared';
import { routes } from './routes';

// The module the shell loads as "mfe_dashboard/app": single-spa lifecycles around this app's react-router.
export const { bootstrap, mount, unmount } = createMfeLifecycles({ name: 'mfe_dashboard', routes });

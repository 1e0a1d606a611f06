import { describeMfeRoutes } from '@productgen/mf-shared/test-support';
import { routes } from '../src/routes';

describeMfeRoutes('mfe_marketing', routes);

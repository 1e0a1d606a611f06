// `npm start`: this microfrontend alone on the page, without the shell. The design tokens are the
// shell's global CSS; this dev-only entry loads them itself (the exposed ./app never does).
import '@productgen/ui-kit/tokens.css';
import { startStandalone } from '@productgen/mf-shared';
import * as app from './app';

void startStandalone('mfe_marketing', app);

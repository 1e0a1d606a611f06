// Module federation's async startup has already initialised the shared scope when this runs, so shared
// singletons (react, single-spa, the platform client) can be imported statically.
import '@productgen/ui-kit/tokens.css';
import './global.css';
import { startShell } from './start';

void startShell();

// Module federation's async startup has already initialised the shared scope when this runs, so shared
// singletons (react, single-spa, the platform client) can be imported statically. The design tokens and the
// page frame's CSS are inlined into index.html (see webpack.config.js), not imported here.
import { startShell } from './start';

void startShell();

import { routesFor } from '@productgen/mf-shared';
import { RemoverPage } from './tools/remover/RemoverPage';
import { ResizerPage } from './tools/resizer/ResizerPage';
import { UpscalerPage } from './tools/upscaler/UpscalerPage';

export const routes = routesFor('mfe_tools', {
  '/image-resizer': <ResizerPage />,
  '/remove-background-shopify': <RemoverPage />,
  '/image-upscaler': <UpscalerPage />,
});

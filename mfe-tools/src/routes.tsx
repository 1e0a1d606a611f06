import { routesFor } from '@productgen/mf-shared';
import { EraserPage } from './tools/eraser/EraserPage';
import { RemoverPage } from './tools/remover/RemoverPage';
import { ResizerPage } from './tools/resizer/ResizerPage';
import { UpscalerPage } from './tools/upscaler/UpscalerPage';

export const routes = routesFor('mfe_tools', {
  '/image-resizer': <ResizerPage />,
  '/remove-background-shopify': <RemoverPage />,
  '/image-upscaler': <UpscalerPage />,
  '/remove-object-from-photo': <EraserPage />,
});

import { useEffect } from 'react';
import { setPageMeta, type PageMeta } from './page-meta';

/** Sets the page's title, description, canonical link and social-preview data while it is shown. */
export function usePageMeta({ title, description, path, image }: PageMeta): void {
  useEffect(() => {
    setPageMeta({ title, description, path, image });
  }, [title, description, path, image]);
}

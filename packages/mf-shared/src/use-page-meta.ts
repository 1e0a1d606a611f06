import { useEffect } from 'react';
import { setPageMeta, type PageMeta } from './page-meta';

/** Sets the page's title, description, canonical link and social-preview data while it is shown. */
export function usePageMeta(meta: PageMeta): void {
  // One key for the whole description, so a new array of the same questions does not rewrite the head.
  const key = JSON.stringify(meta);
  useEffect(() => {
    setPageMeta(JSON.parse(key) as PageMeta);
  }, [key]);
}

import { useEffect, useState } from 'react';
import { usePlatformClient, type Category } from '@productgen/platform-client';

/** The category list (GET /image-gen/categories); null until it has loaded, or when it cannot be. */
export function useCategories(): Category[] | null {
  const client = usePlatformClient();
  const [categories, setCategories] = useState<Category[] | null>(null);
  useEffect(() => {
    let active = true;
    client
      .categories()
      .then((list) => active && Array.isArray(list) && setCategories(list))
      // Without the list the category id is shown as is; analysis still decides what is known.
      .catch(() => undefined);
    return () => {
      active = false;
    };
  }, [client]);
  return categories;
}

import type { ReactNode } from 'react';
import { useLocation } from 'react-router';
import { routeEntry, type RouteEntry } from './routes';
import { usePageMeta } from './use-page-meta';
import styles from './route-page.module.css';

/** A page's heading and lead sentence, with its page meta (title, description, canonical, social data). */
export function PageIntro({ entry, children }: { entry: RouteEntry; children?: ReactNode }) {
  const { pathname } = useLocation();
  usePageMeta({ title: entry.title, description: entry.description, path: pathname });
  return (
    <section className={styles.page}>
      <h1 className={styles.title}>{entry.title}</h1>
      <p className={styles.lead}>{entry.description}</p>
      {children}
    </section>
  );
}

/** The page for a route-table path whose full content is built in its own microfrontend issue. */
export function RoutePage({ path }: { path: string }) {
  return <PageIntro entry={routeEntry(path)} />;
}

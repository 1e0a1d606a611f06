import * as React from 'react';
import * as ReactDOMClient from 'react-dom/client';
import singleSpaReact from 'single-spa-react';
import type { LifeCycles } from 'single-spa';
import { setPageMeta } from '@productgen/mf-shared';
import { LinkButton } from '@productgen/ui-kit';
import styles from './not-found.module.css';

export const NOT_FOUND_APP = 'shell_not_found';

/** Every path no microfrontend owns (SPEC §8 "404 Not Found"). */
export function NotFoundPage() {
  React.useEffect(() => {
    setPageMeta({
      title: 'Page not found',
      description: 'The page you are looking for does not exist.',
      path: window.location.pathname,
    });
  }, []);
  return (
    <section className={styles.page}>
      <h1>Page not found</h1>
      <p>The page you are looking for does not exist or has moved.</p>
      <LinkButton href="/">Go to the home page</LinkButton>
    </section>
  );
}

export const notFoundLifecycles: LifeCycles = singleSpaReact({
  React,
  ReactDOMClient,
  rootComponent: NotFoundPage,
  errorBoundary: () => <p>Page not found</p>,
});

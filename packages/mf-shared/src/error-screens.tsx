import { useEffect } from 'react';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import styles from './error-screens.module.css';

export function errorText(error: unknown): string {
  if (error instanceof Error) return error.message || error.name;
  if (typeof error === 'string') return error;
  if (error && typeof error === 'object' && 'error' in error && typeof error.error === 'string') return error.error;
  return 'Something went wrong.';
}

/** The generic error page of SPEC §2: "Oops" with the error text. */
export function OopsScreen({ error }: { error: unknown }) {
  useEffect(() => {
    document.title = 'Oops';
  }, []);
  return (
    <section className={styles.screen} role="alert">
      <h1 className={styles.title}>Oops</h1>
      <p className={styles.text}>{errorText(error)}</p>
      <a className={styles.link} href="/">
        Back to the home page
      </a>
    </section>
  );
}

/**
 * The router's error element: HTTP-like route errors (404 Not Found, 405 Method Not Allowed, 400 Bad Request)
 * get the router's default "Unexpected Application Error!" screen; thrown errors get the "Oops" page.
 */
export function RouteErrorScreen() {
  const error = useRouteError();
  useEffect(() => {
    if (isRouteErrorResponse(error)) document.title = 'Unexpected Application Error!';
  }, [error]);
  if (!isRouteErrorResponse(error)) return <OopsScreen error={error} />;
  return (
    <section className={styles.screen} role="alert">
      <h1 className={styles.title}>Unexpected Application Error!</h1>
      <h2 className={styles.status}>
        {error.status} {error.statusText}
      </h2>
    </section>
  );
}

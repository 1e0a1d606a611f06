import { Component, useEffect, type ReactNode } from 'react';
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

interface PageErrorBoundaryProps {
  /** The page's path: going to another page clears a caught error, so that page renders again. */
  pathname: string;
  children?: ReactNode;
}

interface PageErrorBoundaryState {
  pathname: string;
  failed: boolean;
  error: unknown;
}

/** An app's pages: one that throws while rendering shows the "Oops" page instead of leaving the app blank. */
export class PageErrorBoundary extends Component<PageErrorBoundaryProps, PageErrorBoundaryState> {
  override state: PageErrorBoundaryState = { pathname: this.props.pathname, failed: false, error: null };

  static getDerivedStateFromProps(
    props: PageErrorBoundaryProps,
    state: PageErrorBoundaryState,
  ): Partial<PageErrorBoundaryState> | null {
    return props.pathname === state.pathname ? null : { pathname: props.pathname, failed: false, error: null };
  }

  static getDerivedStateFromError(error: unknown): Partial<PageErrorBoundaryState> {
    return { failed: true, error };
  }

  override render() {
    return this.state.failed ? <OopsScreen error={this.state.error} /> : this.props.children;
  }
}

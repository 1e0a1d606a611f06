import { Spinner } from '@productgen/ui-kit';
import { describeBackend } from '../runtime/backend';
import type { ModelState } from '../runtime/use-ai-model';
import { TEXTS } from '../texts';
import styles from './ToolPage.module.css';

/** The loader's state as the visitor sees it: the loading texts, the device backend, or the Model Error. */
export function ModelStatus({ state }: { state: ModelState }) {
  if (state.phase === 'error') {
    return (
      <div role="alert" className={styles.error}>
        <strong>{TEXTS.modelError}</strong>
        <p>{state.message}</p>
      </div>
    );
  }
  if (state.phase === 'ready') {
    return (
      <p className={styles.status} data-testid="model-ready">
        AI ready · runs on this device: {describeBackend(state.device)}
      </p>
    );
  }
  return (
    <p className={styles.status} role="status" data-testid="model-loading">
      <Spinner size="sm" label={null} /> {state.phase === 'runtime' ? TEXTS.loadingRuntime : TEXTS.loadingModel}
    </p>
  );
}

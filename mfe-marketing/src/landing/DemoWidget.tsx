import { useEffect, useState } from 'react';
import { useSession } from '@productgen/platform-client';
import { Button, LinkButton, Modal, ProgressBar } from '@productgen/ui-kit';
import type { DemoSample } from '../content/schema';
import { getSiteIndex } from '../content/site-data';
import { JoinButton } from '../cta';
import { SiteImg } from '../pages/images';
import styles from './DemoWidget.module.css';

// SPEC §2 "Demo widget" and §9: progress +20 every 600 ms, at most 5 results.
export const DEMO_STEP = 20;
export const DEMO_STEP_MS = 600;
export const DEMO_RESULTS = 5;

/** SPEC §2: the progress stage text. */
export function stageText(progress: number): string {
  if (progress < 10) return 'uploading photo';
  if (progress < 30) return 'analyzing product';
  if (progress < 70) return 'making magic';
  return 'finalizing';
}

/** Fisher–Yates on a copy. */
export function shuffled<T>(items: readonly T[], random: () => number = Math.random): T[] {
  const copy = [...items];
  for (let index = copy.length - 1; index > 0; index -= 1) {
    const other = Math.floor(random() * (index + 1));
    [copy[index], copy[other]] = [copy[other]!, copy[index]!];
  }
  return copy;
}

type DemoState =
  | { phase: 'idle' }
  | { phase: 'working'; progress: number }
  | { phase: 'done'; results: DemoSample['results']; selected: number };

function SamplePicker({
  open,
  onClose,
  onPick,
}: {
  open: boolean;
  onClose: () => void;
  onPick: (sample: DemoSample) => void;
}) {
  const { signedIn } = useSession();
  return (
    <Modal
      open={open}
      onClose={onClose}
      title="Pick a sample photo"
      size="lg"
      footer={
        signedIn ? (
          <LinkButton href="/productgen">Create now</LinkButton>
        ) : (
          <>
            <span className={styles.footerText}>Want to use your own photo?</span>
            <JoinButton size="md" />
          </>
        )
      }
    >
      <ul className={styles.samples}>
        {getSiteIndex().samples.map((sample) => (
          <li key={sample.id}>
            <button type="button" className={styles.sample} onClick={() => onPick(sample)}>
              <SiteImg image={sample.thumbnail} alt="" />
              <span>{sample.shows}</span>
            </button>
          </li>
        ))}
      </ul>
    </Modal>
  );
}

/** The landing page's live demo: pick a sample, press Create, watch the progress, browse the studio results. */
export function DemoWidget() {
  const [pickerOpen, setPickerOpen] = useState(false);
  const [sample, setSample] = useState<DemoSample | null>(null);
  const [state, setState] = useState<DemoState>({ phase: 'idle' });

  useEffect(() => {
    if (state.phase !== 'working' || !sample) return undefined;
    const timer = setTimeout(() => {
      const progress = Math.min(100, state.progress + DEMO_STEP);
      setState(
        progress >= 100
          ? { phase: 'done', results: shuffled(sample.results).slice(0, DEMO_RESULTS), selected: 0 }
          : { phase: 'working', progress },
      );
    }, DEMO_STEP_MS);
    return () => clearTimeout(timer);
  }, [state, sample]);

  const reset = () => {
    setState({ phase: 'idle' });
    setSample(null);
  };
  const label = state.phase === 'working' ? 'Working...' : state.phase === 'done' ? 'Done!' : 'Create';
  const preview = state.phase === 'done' ? state.results[state.selected] : null;

  return (
    <div className={styles.widget}>
      <div className={styles.stage}>
        {preview && sample ? (
          <SiteImg image={preview} alt={`Studio photo made from the ${sample.shows}`} className={styles.preview} />
        ) : sample ? (
          <SiteImg image={sample.photo} alt={`Phone photo: ${sample.shows}`} className={styles.preview} />
        ) : (
          <p className={styles.empty}>Pick one of five sample phone photos to see what the studio makes of it.</p>
        )}
      </div>
      <div className={styles.controls}>
        <Button variant="secondary" onClick={() => setPickerOpen(true)} disabled={state.phase === 'working'}>
          {sample ? 'Change sample' : 'Pick a sample photo'}
        </Button>
        <Button
          onClick={() => setState({ phase: 'working', progress: 0 })}
          disabled={!sample || state.phase !== 'idle'}
        >
          {label}
        </Button>
        {state.phase === 'done' && (
          <a
            href="#demo"
            className={styles.reset}
            onClick={(event) => {
              event.preventDefault();
              reset();
            }}
          >
            Reset
          </a>
        )}
      </div>
      {state.phase === 'working' && (
        <ProgressBar value={state.progress} label={stageText(state.progress)} showPercentage />
      )}
      {state.phase === 'done' && sample && (
        <ul className={styles.results} aria-label="Results">
          {state.results.map((result, index) => (
            <li key={result.file}>
              <button
                type="button"
                className={styles.thumb}
                aria-pressed={index === state.selected}
                aria-label={`Show result ${index + 1}`}
                onClick={() => setState({ ...state, selected: index })}
              >
                <SiteImg image={result} alt="" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {sample && <p className={styles.credit}>Photo: {sample.credit}</p>}
      <SamplePicker
        open={pickerOpen}
        onClose={() => setPickerOpen(false)}
        onPick={(picked) => {
          setSample(picked);
          setState({ phase: 'idle' });
          setPickerOpen(false);
        }}
      />
    </div>
  );
}

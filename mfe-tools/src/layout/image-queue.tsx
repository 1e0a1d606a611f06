import { useCallback, useEffect, useRef, useState } from 'react';
import { Button, ProgressBar } from '@productgen/ui-kit';
import { downloadBlob } from '../image/canvas';
import styles from './ToolPage.module.css';

export interface QueueResult {
  blob: Blob;
  url: string;
  name: string;
  width: number;
  height: number;
}

export interface QueueItem {
  id: number;
  file: File;
  preview: string;
  status: 'waiting' | 'working' | 'done' | 'failed';
  progress?: { done: number; total: number };
  result?: QueueResult;
}

/** The images a batch tool (remover, upscaler) works through, with their object URLs freed when dropped. */
export function useImageQueue() {
  const [items, setItems] = useState<QueueItem[]>([]);
  const nextId = useRef(1);
  const urls = useRef(new Set<string>());
  const track = (url: string) => {
    urls.current.add(url);
    return url;
  };
  useEffect(() => {
    const owned = urls.current;
    return () => owned.forEach((url) => URL.revokeObjectURL(url));
  }, []);

  const add = useCallback((files: File[]) => {
    setItems((current) => [
      ...current,
      ...files.map((file) => ({
        id: nextId.current++,
        file,
        preview: track(URL.createObjectURL(file)),
        status: 'waiting' as const,
      })),
    ]);
  }, []);
  const update = useCallback((id: number, patch: Partial<QueueItem>) => {
    setItems((current) => current.map((item) => (item.id === id ? { ...item, ...patch } : item)));
  }, []);
  /** An image's result; a result made again (the remover's new background) replaces the old one and frees its URL. */
  const setResult = useCallback((id: number, blob: Blob, name: string, width: number, height: number) => {
    const result = { blob, url: track(URL.createObjectURL(blob)), name, width, height };
    setItems((current) =>
      current.map((item) => {
        if (item.id !== id) return item;
        if (item.result) {
          URL.revokeObjectURL(item.result.url);
          urls.current.delete(item.result.url);
        }
        return { ...item, status: 'done' as const, progress: undefined, result };
      }),
    );
  }, []);
  const clear = useCallback(() => {
    urls.current.forEach((url) => URL.revokeObjectURL(url));
    urls.current.clear();
    setItems([]);
  }, []);

  const [working, setWorking] = useState(false);
  /** Runs `work` on every image not done yet, one at a time; an image that fails is marked and the rest go on. */
  const run = async (work: (item: QueueItem) => Promise<void>) => {
    setWorking(true);
    for (const item of items.filter((entry) => entry.status !== 'done')) {
      update(item.id, { status: 'working' });
      try {
        await work(item);
      } catch {
        // SPEC §8: processing errors are not shown as messages; the card says the image failed.
        update(item.id, { status: 'failed' });
      }
    }
    setWorking(false);
  };
  return { items, add, update, setResult, clear, run, working };
}

export type ImageQueue = ReturnType<typeof useImageQueue>;

/** The batch tools' two buttons: run over the waiting images (its label turns into the working text), and Clear. */
export function QueueActions({
  queue,
  ready,
  label,
  workingText,
  onRun,
}: {
  queue: ImageQueue;
  ready: boolean;
  label: string;
  workingText: string;
  onRun: () => void;
}) {
  const waiting = queue.items.some((item) => item.status !== 'done');
  return (
    <div className={styles.controls}>
      <Button onClick={onRun} disabled={!ready || queue.working || !waiting} loading={queue.working}>
        {queue.working ? workingText : label}
      </Button>
      <Button variant="secondary" onClick={queue.clear} disabled={queue.working || queue.items.length === 0}>
        Clear
      </Button>
    </div>
  );
}

/** One card per image: the result (or the original while waiting), its size, progress and its download. */
export function QueueList({ items, workingText }: { items: QueueItem[]; workingText: string }) {
  if (items.length === 0) return null;
  return (
    <ul className={styles.results} aria-label="Your images">
      {items.map((item) => (
        <li key={item.id} className={styles.card} data-testid="queue-item" data-status={item.status}>
          <img src={item.result?.url ?? item.preview} alt={item.result?.name ?? item.file.name} />
          <span className={styles.cardName}>{item.result?.name ?? item.file.name}</span>
          {item.result && (
            <span className={styles.cardMeta}>
              {item.result.width} × {item.result.height} px
            </span>
          )}
          {item.status === 'working' && (
            <ProgressBar
              label={workingText}
              value={item.progress?.done}
              max={item.progress?.total}
              valueText={item.progress ? `${item.progress.done} of ${item.progress.total} tiles` : undefined}
            />
          )}
          {item.status === 'failed' && <span className={styles.cardMeta}>This image could not be processed.</span>}
          {item.result && (
            <Button
              size="sm"
              variant="secondary"
              onClick={() => item.result && downloadBlob(item.result.blob, item.result.name)}
            >
              Download
            </Button>
          )}
        </li>
      ))}
    </ul>
  );
}

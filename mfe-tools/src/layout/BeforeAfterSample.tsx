import { useEffect, useState } from 'react';
import { toolAssetUrl } from '../runtime/assets';
import styles from './ToolPage.module.css';

export type SampleTool = 'resizer' | 'remover' | 'upscaler' | 'eraser';

export interface SamplePair {
  before: string;
  after: string;
  caption: string;
}

/** samples/manifest.json, written at build by build/make-samples: six pairs per tool, made by the tools' code. */
type SampleManifest = Record<SampleTool, SamplePair[]>;

/** One random pair of the tool's fixed set of six (SPEC §2). Nothing shows while the manifest loads. */
export function BeforeAfterSample({ tool }: { tool: SampleTool }) {
  const [pair, setPair] = useState<SamplePair>();
  useEffect(() => {
    let cancelled = false;
    // Renderers without fetch (jsdom) show no sample, as a failed load does.
    if (typeof fetch !== 'function') return;
    fetch(toolAssetUrl('samples/manifest.json'))
      .then((response) => (response.ok ? (response.json() as Promise<SampleManifest>) : undefined))
      .then((manifest) => {
        const pairs = manifest?.[tool] ?? [];
        if (!cancelled && pairs.length > 0) setPair(pairs[Math.floor(Math.random() * pairs.length)]);
      })
      .catch(() => undefined);
    return () => {
      cancelled = true;
    };
  }, [tool]);
  if (!pair) return null;
  return (
    <figure className={styles.sample} data-testid="before-after-sample">
      <div className={styles.sampleImages}>
        <div>
          <img src={toolAssetUrl(`samples/${pair.before}`)} alt={`Before: ${pair.caption}`} loading="lazy" />
          <span>Before</span>
        </div>
        <div>
          <img src={toolAssetUrl(`samples/${pair.after}`)} alt={`After: ${pair.caption}`} loading="lazy" />
          <span>After</span>
        </div>
      </div>
      <figcaption>{pair.caption}</figcaption>
    </figure>
  );
}

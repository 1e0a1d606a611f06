import { getSiteIndex, imageProps } from '../content/site-data';
import type { DemoSample, SampleId, SiteImage } from '../content/schema';
import styles from './Page.module.css';

export function sampleById(id: SampleId): DemoSample | null {
  return getSiteIndex().samples.find((sample) => sample.id === id) ?? null;
}

/** A built image with its pixel size in the markup, so the browser reserves its box before it loads. */
export function SiteImg({
  image,
  alt,
  eager = false,
  className,
}: {
  image: SiteImage;
  alt: string;
  eager?: boolean;
  className?: string;
}) {
  return (
    <img
      {...imageProps(image)}
      alt={alt}
      className={className}
      loading={eager ? 'eager' : 'lazy'}
      decoding="async"
      fetchPriority={eager ? 'high' : undefined}
    />
  );
}

/** A demo sample's phone photo beside one of the studio engine's results made from it, with the photo credit. */
export function BeforeAfter({
  sample,
  result = 0,
  caption,
  eager = false,
}: {
  sample: DemoSample;
  result?: number;
  caption?: string;
  eager?: boolean;
}) {
  const after = sample.results[result] ?? sample.results[0];
  return (
    <figure className={styles.beforeAfter}>
      <div className={styles.pair}>
        <div className={styles.panel}>
          <span className={styles.badge}>Before</span>
          <SiteImg image={sample.photo} alt={`Phone photo: ${sample.shows}`} eager={eager} />
        </div>
        {after && (
          <div className={styles.panel}>
            <span className={styles.badge}>After</span>
            <SiteImg image={after} alt={`Studio photo made from it: ${sample.shows}`} eager={eager} />
          </div>
        )}
      </div>
      <figcaption className={styles.caption}>
        {caption && <span>{caption}. </span>}
        <span className={styles.credit}>Photo: {sample.credit}</span>
      </figcaption>
    </figure>
  );
}

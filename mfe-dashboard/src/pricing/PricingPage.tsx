import { useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import type { PackageTier } from '@productgen/contracts';
import { usePlatformClient, useSession, type PackageId } from '@productgen/platform-client';
import { PageIntro, routeEntry } from '@productgen/mf-shared';
import { Button, Spinner } from '@productgen/ui-kit';
import styles from './PricingPage.module.css';

/** A package tier as GET /configlist serves it (the contracts' packageTiers), its id one the checkout takes. */
export type PricingTier = Omit<PackageTier, 'packageId'> & { packageId: PackageId };

export const PROCESSING_PAYMENT_TEXT = 'Processing payment';
export const MOST_POPULAR_TEXT = 'Most popular';

function isTier(value: unknown): value is PricingTier {
  const tier = value as Partial<PricingTier> | null;
  return (
    typeof tier === 'object' &&
    tier !== null &&
    typeof tier.packageId === 'number' &&
    typeof tier.name === 'string' &&
    typeof tier.price === 'string' &&
    typeof tier.images === 'number'
  );
}

/** The tiers of a /configlist answer, in package order; empty when the answer has none. */
export function tiersOf(config: Record<string, unknown>): PricingTier[] {
  const packages = Array.isArray(config.packages) ? config.packages : [];
  return packages.filter(isTier).sort((a, b) => a.packageId - b.packageId);
}

function TierTile({
  tier,
  disabled,
  onChoose,
}: {
  tier: PricingTier;
  disabled: boolean;
  onChoose: (tier: PricingTier) => void;
}) {
  const headingId = `pricing-tier-${tier.packageId}`;
  return (
    <li className={tier.mostPopular ? `${styles.tile} ${styles.popular}` : styles.tile} aria-labelledby={headingId}>
      {tier.mostPopular && <span className={styles.badge}>{MOST_POPULAR_TEXT}</span>}
      <h2 id={headingId} className={styles.name}>
        {tier.name}
      </h2>
      <p className={styles.price}>{tier.price}</p>
      <p className={styles.images}>
        {tier.oldImages !== null && (
          <>
            <del aria-label={`was ${tier.oldImages} images`}>{tier.oldImages}</del>{' '}
          </>
        )}
        <strong>{tier.images}</strong> images{tier.packageId === 0 ? ' on signup' : ''}
      </p>
      <ul className={styles.facts}>
        {tier.perImagePrice && <li>{tier.perImagePrice} per image</li>}
        {tier.savingsPercent !== null && <li className={styles.savings}>{tier.savingsPercent}% savings</li>}
        <li>{tier.watermark ? 'Watermarked images' : 'No watermark'}</li>
        {tier.commercialUse && <li>Commercial use allowed</li>}
      </ul>
      <Button
        fullWidth
        variant={tier.mostPopular ? 'primary' : 'secondary'}
        disabled={disabled}
        onClick={() => onChoose(tier)}
        aria-describedby={headingId}
      >
        {tier.purchasable ? `Buy ${tier.name}` : 'Start Free'}
      </Button>
    </li>
  );
}

export interface PricingPageProps {
  /** Sends the browser to the hosted checkout; replaceable in tests (jsdom cannot navigate). */
  redirect?: (url: string) => void;
}

const browserRedirect = (url: string) => window.location.assign(url);

export function PricingPage({ redirect = browserRedirect }: PricingPageProps) {
  const client = usePlatformClient();
  const navigate = useNavigate();
  const { signedIn } = useSession();
  const [tiers, setTiers] = useState<PricingTier[] | null>(null);
  const [loadFailed, setLoadFailed] = useState(false);
  const [processing, setProcessing] = useState(false);

  useEffect(() => {
    let active = true;
    client.configList().then(
      (config) => active && setTiers(tiersOf(config)),
      () => active && setLoadFailed(true),
    );
    return () => {
      active = false;
    };
  }, [client]);

  const choose = async (tier: PricingTier) => {
    // SPEC §5: a signed-out click on any tier, paid or Free, goes to /login.
    if (!signedIn) {
      navigate('/login');
      return;
    }
    if (!tier.purchasable) return;
    setProcessing(true);
    try {
      const session = await client.createCheckoutSession(tier.packageId);
      if (!session.url) throw new Error('The checkout session has no hosted page');
      redirect(session.url);
    } catch {
      // SPEC §8: checkout failures are swallowed; the overlay clears with no message.
      setProcessing(false);
    }
  };

  return (
    <PageIntro entry={routeEntry('/pricing')}>
      {tiers === null && !loadFailed && (
        <div className={styles.loading}>
          <Spinner label="Loading packages..." />
        </div>
      )}
      {loadFailed && <p role="alert">An error occurred while fetching data</p>}
      {tiers !== null && (
        <ul className={styles.tiles} aria-label="Credit packages">
          {tiers.map((tier) => (
            <TierTile
              key={tier.packageId}
              tier={tier}
              // Free cannot be bought: disabled when signed in; everything is disabled while processing.
              disabled={processing || (!tier.purchasable && signedIn)}
              onChoose={(chosen) => void choose(chosen)}
            />
          ))}
        </ul>
      )}
      {processing && (
        <div className={styles.overlay} role="status" aria-live="polite">
          <Spinner label={null} />
          <p>{PROCESSING_PAYMENT_TEXT}</p>
        </div>
      )}
    </PageIntro>
  );
}

import type { Logger } from '@productgen/service-kit';
import type { UserRepository } from '../data/user-repository';
import { deriveShopProfile } from '../domain/shop-context';
import { SiteFetchRefusedError, type SiteFetcher } from './site-fetcher';

/**
 * Works out a shop's categories and brand colours from its home page after the user saves a website address.
 * It runs in the background (saving settings never waits for a third-party site) and is best effort: a site that
 * cannot or may not be read leaves the context empty.
 */
export class ShopContextDeriver {
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(
    private readonly users: UserRepository,
    private readonly fetchSite: SiteFetcher,
    private readonly logger: Logger,
  ) {}

  schedule(userId: string, siteUrl: string): void {
    if (this.closed) return;
    const task = this.derive(userId, siteUrl).finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }

  /** Resolves once every derivation started so far has finished. */
  async settle(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Takes no new work and waits for the running derivations. */
  async close(): Promise<void> {
    this.closed = true;
    await this.settle();
  }

  private async derive(userId: string, siteUrl: string): Promise<void> {
    const log = this.logger.child({ component: 'shop-context', userId });
    try {
      const page = await this.fetchSite(siteUrl);
      const profile = deriveShopProfile(page.html);
      const saved = await this.users.saveShopProfile(userId, siteUrl, profile.shopContext, profile.brandColors);
      log.info(
        { categories: profile.shopContext.map((entry) => entry.category_id), colors: profile.brandColors, saved },
        saved ? 'shop context derived' : 'shop context discarded: the site address changed meanwhile',
      );
    } catch (error) {
      const refused = error instanceof SiteFetchRefusedError;
      log.warn({ err: error, refused }, refused ? 'website address refused' : 'website could not be read');
    }
  }
}

import { z } from 'zod';
import { limits } from './limits';

/** Package tiers of SPEC §3 / §9 as data: the pricing page, checkout and the ledger all read these. */

export const packageIdSchema = z
  .number({ error: 'must be a package id from 0 to 3' })
  .int({ error: 'must be a package id from 0 to 3' })
  .min(0, { error: 'must be a package id from 0 to 3' })
  .max(3, { error: 'must be a package id from 0 to 3' });

/** The Free tier is granted on signup and cannot be bought. */
export const purchasablePackageIdSchema = z
  .number({ error: 'must be 1, 2 or 3 (the Free tier cannot be bought)' })
  .int({ error: 'must be 1, 2 or 3 (the Free tier cannot be bought)' })
  .min(1, { error: 'must be 1, 2 or 3 (the Free tier cannot be bought)' })
  .max(3, { error: 'must be 1, 2 or 3 (the Free tier cannot be bought)' });

export const packageTierSchema = z.object({
  packageId: packageIdSchema,
  name: z.string(),
  priceCents: z.number().int().nonnegative(),
  /** Display price, e.g. "$4.99". */
  price: z.string(),
  /** Credits (images) the tier gives. */
  images: z.number().int().positive(),
  /** The smaller, crossed-out image count shown beside `images`, when the tier has one. */
  oldImages: z.number().int().positive().nullable(),
  perImageCents: z.number().int().positive().nullable(),
  /** Display price per image, e.g. "$0.10". */
  perImagePrice: z.string().nullable(),
  /** Saving per image against the Hobbyist tier, in percent. */
  savingsPercent: z.number().int().min(1).max(100).nullable(),
  watermark: z.boolean(),
  commercialUse: z.boolean(),
  mostPopular: z.boolean(),
  purchasable: z.boolean(),
});
export type PackageTier = z.infer<typeof packageTierSchema>;
export type PackageId = 0 | 1 | 2 | 3;
export type PurchasablePackageId = 1 | 2 | 3;

export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}

function paidTier(
  packageId: PurchasablePackageId,
  name: string,
  priceCents: number,
  images: number,
  perImageCents: number,
  extra: { oldImages?: number; savingsPercent?: number; mostPopular?: boolean } = {},
): PackageTier {
  return {
    packageId,
    name,
    priceCents,
    price: formatUsd(priceCents),
    images,
    oldImages: extra.oldImages ?? null,
    perImageCents,
    perImagePrice: formatUsd(perImageCents),
    savingsPercent: extra.savingsPercent ?? null,
    watermark: false,
    commercialUse: true,
    mostPopular: extra.mostPopular ?? false,
    purchasable: true,
  };
}

export const packageTiers: readonly PackageTier[] = Object.freeze([
  {
    packageId: 0,
    name: 'Free',
    priceCents: 0,
    price: formatUsd(0),
    images: limits.signupBonusCredits,
    oldImages: null,
    perImageCents: null,
    perImagePrice: null,
    savingsPercent: null,
    watermark: true,
    commercialUse: true,
    mostPopular: false,
    purchasable: false,
  },
  paidTier(1, 'Hobbyist', 99, 5, 20),
  // The third tile of the pricing page carries the "Most popular" badge (SPEC §2).
  paidTier(2, 'Small Business', 499, 50, 10, { oldImages: 40, savingsPercent: 50, mostPopular: true }),
  paidTier(3, 'Professional Seller', 999, 200, 5, { oldImages: 100, savingsPercent: 75 }),
]);

export function isPackageId(value: unknown): value is PackageId {
  return packageIdSchema.safeParse(value).success;
}

export function getPackageTier(packageId: PackageId): PackageTier {
  const tier = packageTiers.find((candidate) => candidate.packageId === packageId);
  if (!tier) throw new RangeError(`Unknown package id ${String(packageId)}`);
  return tier;
}

import { formatUsd, getPackageTier, limits, packageTiers, packageTierSchema } from '@productgen/contracts';

describe('package tiers (SPEC §3, §9)', () => {
  test('there are four tiers with ids 0..3, each valid against its schema', () => {
    expect(packageTiers.map((tier) => tier.packageId)).toEqual([0, 1, 2, 3]);
    for (const tier of packageTiers) expect(packageTierSchema.parse(tier)).toEqual(tier);
  });

  test('Free: 10 watermarked images on signup, commercial use, not for sale', () => {
    expect(getPackageTier(0)).toMatchObject({
      name: 'Free',
      priceCents: 0,
      images: 10,
      watermark: true,
      commercialUse: true,
      purchasable: false,
    });
    expect(limits.signupBonusCredits).toBe(10);
  });

  test.each([
    [1, 'Hobbyist', '$0.99', 5, null, '$0.20', null],
    [2, 'Small Business', '$4.99', 50, 40, '$0.10', 50],
    [3, 'Professional Seller', '$9.99', 200, 100, '$0.05', 75],
  ] as const)(
    'tier %i %s: %s for %i images (old %s), %s each, %s%% savings',
    (id, name, price, images, old, per, save) => {
      expect(getPackageTier(id)).toMatchObject({
        name,
        price,
        images,
        oldImages: old,
        perImagePrice: per,
        savingsPercent: save,
        watermark: false,
        purchasable: true,
      });
    },
  );

  test('per-image prices and savings follow from the prices (nothing typed in twice disagrees)', () => {
    const hobbyist = getPackageTier(1);
    for (const tier of packageTiers.filter((candidate) => candidate.purchasable)) {
      expect(tier.perImageCents).toBe(Math.round(tier.priceCents / tier.images));
      const saving = Math.round((1 - (tier.perImageCents ?? 0) / (hobbyist.perImageCents ?? 1)) * 100);
      expect(tier.savingsPercent ?? 0).toBe(saving);
    }
  });

  test('only the third tile is "Most popular"', () => {
    expect(packageTiers.filter((tier) => tier.mostPopular).map((tier) => tier.packageId)).toEqual([2]);
  });

  test('formatUsd and unknown ids', () => {
    expect(formatUsd(499)).toBe('$4.99');
    expect(() => getPackageTier(7 as never)).toThrow(RangeError);
  });
});

import { TOOLTIP_ENTER_SITE_URL, userSchema, type ShopContextEntry, type User } from '@productgen/contracts';

/** A user as the auth database keeps it (the repository maps documents to this shape). */
export interface UserRecord {
  id: string;
  /** `<provider>:<subject>`, e.g. `google:1234` or `dev:ab12`; one account per identity. */
  subject: string;
  email: string;
  name: string;
  givenName: string;
  familyName: string;
  picture: string;
  credits: number;
  /** Billing has reported this account's balance at least once (see `credits_pending` in the user contract). */
  creditsReported: boolean;
  siteUrl: string;
  shopContext: ShopContextEntry[];
  brandColors: string[];
  isFirstGeneration: boolean;
  showSiteUrlTooltip: boolean;
  refCode: string | null;
}

/** The user as every API answer shows it (SPEC §3), checked against the shared contract. */
export function toUserView(record: UserRecord): User {
  return userSchema.parse({
    id: record.id,
    name: record.name,
    given_name: record.givenName,
    family_name: record.familyName,
    email: record.email,
    picture: record.picture,
    credits: record.credits,
    credits_pending: !record.creditsReported,
    site_url: record.siteUrl,
    shop_context: record.shopContext.map((entry) => ({ category_id: entry.category_id, label: entry.label })),
    flags: { is_first_generation: record.isFirstGeneration, showSiteUrlTooltip: record.showSiteUrlTooltip },
  });
}

/** Dismissing the "enter your site URL" tip hides it for good; other tip names are only recorded. */
export function dismissesSiteUrlTooltip(tooltipName: string): boolean {
  return tooltipName === TOOLTIP_ENTER_SITE_URL;
}

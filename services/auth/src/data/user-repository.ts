import { isValidObjectId, Types, type Model } from 'mongoose';
import { limits, type ShopContextEntry } from '@productgen/contracts';
import { subjectKey, type VerifiedIdentity } from '../domain/identity';
import {
  MAX_METADATA_BYTES,
  limitRefusal,
  type MetadataRefusal,
  type MetadataSave,
  type StoredMetadata,
} from '../domain/metadata';
import type { UserRecord } from '../domain/user';
import type { UserDocument } from './models';

const DUPLICATE_KEY = 11000;
/** A metadata save refused by a limit is tried again only while concurrent saves keep changing what is stored. */
const METADATA_SAVE_ATTEMPTS = 5;
/** Most distinct tooltip names kept per user, so a client cannot grow the document without bound. */
export const MAX_DISMISSED_TOOLTIPS = 100;

export interface SignInOutcome {
  user: UserRecord;
  created: boolean;
  signupPublished: boolean;
}

export interface BalanceUpdate {
  balance: number;
  version: number;
  hasPurchased: boolean;
}

function isDuplicateKey(error: unknown): boolean {
  return typeof error === 'object' && error !== null && (error as { code?: unknown }).code === DUPLICATE_KEY;
}

/** Ids from the wire are checked before they become ObjectIds; a malformed id is simply "no such user". */
function objectIdOf(id: string): Types.ObjectId | undefined {
  return isValidObjectId(id) && /^[0-9a-f]{24}$/i.test(id) ? new Types.ObjectId(id) : undefined;
}

/** For ids that came from our own records (a session's user): malformed means a bug, never a query on `undefined`. */
function trustedObjectId(id: string): Types.ObjectId {
  const objectId = objectIdOf(id);
  if (!objectId) throw new Error(`not a user id: ${JSON.stringify(id)}`);
  return objectId;
}

export function toUserRecord(doc: UserDocument): UserRecord {
  return {
    id: doc._id.toHexString(),
    subject: doc.subject,
    email: doc.email,
    name: doc.name,
    givenName: doc.given_name,
    familyName: doc.family_name,
    picture: doc.picture,
    credits: doc.credits,
    creditsReported: doc.credits_version > 0,
    siteUrl: doc.site_url,
    shopContext: doc.shop_context,
    brandColors: doc.brand_colors,
    isFirstGeneration: doc.flags.is_first_generation,
    showSiteUrlTooltip: doc.flags.showSiteUrlTooltip,
    refCode: doc.ref_code,
  };
}

export class UserRepository {
  constructor(private readonly users: Model<UserDocument>) {}

  async findById(id: string): Promise<UserRecord | undefined> {
    const objectId = objectIdOf(id);
    if (!objectId) return undefined;
    const doc = await this.users.findById(objectId).lean<UserDocument>();
    return doc ? toUserRecord(doc) : undefined;
  }

  /**
   * The account of this identity, created on its first sign-in (keeping the referral code); later sign-ins only
   * refresh the profile the provider vouches for. Concurrent first sign-ins end up with one account.
   */
  async signIn(identity: VerifiedIdentity, refCode: string | null): Promise<SignInOutcome> {
    const subject = subjectKey(identity);
    const profile = {
      email: identity.email,
      name: identity.name,
      given_name: identity.givenName,
      family_name: identity.familyName,
      picture: identity.picture,
    };
    const existing = await this.refreshProfile(subject, profile);
    if (existing) return existing;
    try {
      const created = await this.users.create({ subject, ...profile, ref_code: refCode });
      return { user: toUserRecord(created.toObject()), created: true, signupPublished: false };
    } catch (error) {
      if (!isDuplicateKey(error)) throw error;
      // Another request created it between our lookup and insert.
      const raced = await this.refreshProfile(subject, profile);
      if (!raced) throw error;
      return raced;
    }
  }

  private async refreshProfile(subject: string, profile: Partial<UserDocument>): Promise<SignInOutcome | undefined> {
    const doc = await this.users
      .findOneAndUpdate({ subject }, { $set: profile }, { returnDocument: 'after' })
      .lean<UserDocument>();
    return doc ? { user: toUserRecord(doc), created: false, signupPublished: doc.signup_published } : undefined;
  }

  async markSignupPublished(id: string): Promise<void> {
    await this.users.updateOne({ _id: trustedObjectId(id) }, { $set: { signup_published: true } });
  }

  /**
   * Saves the website. A new address drops the shop context of the old one (it is derived again in the
   * background); saving any address hides the "enter your site URL" tip.
   */
  async saveSiteUrl(id: string, siteUrl: string): Promise<UserRecord | undefined> {
    const objectId = objectIdOf(id);
    if (!objectId) return undefined;
    const current = await this.users.findById(objectId).lean<UserDocument>();
    if (!current) return undefined;
    const update: Record<string, unknown> = { site_url: siteUrl };
    if (siteUrl !== current.site_url) {
      update.shop_context = [];
      update.brand_colors = [];
    }
    if (siteUrl !== '') update['flags.showSiteUrlTooltip'] = false;
    const doc = await this.users
      .findByIdAndUpdate(objectId, { $set: update }, { returnDocument: 'after' })
      .lean<UserDocument>();
    return doc ? toUserRecord(doc) : undefined;
  }

  /** Stores a derived shop profile unless the user has meanwhile changed the address it was derived from. */
  async saveShopProfile(
    id: string,
    siteUrl: string,
    shopContext: ShopContextEntry[],
    brandColors: string[],
  ): Promise<boolean> {
    const result = await this.users.updateOne(
      { _id: trustedObjectId(id), site_url: siteUrl },
      { $set: { shop_context: shopContext, brand_colors: brandColors } },
    );
    return result.modifiedCount > 0;
  }

  /** Applies a balance only if it is newer than the one stored; a replay or an older message changes nothing. */
  async applyBalance(id: string, update: BalanceUpdate): Promise<boolean> {
    const objectId = objectIdOf(id);
    if (!objectId) return false;
    const result = await this.users.updateOne(
      { _id: objectId, credits_version: { $lt: update.version } },
      { $set: { credits: update.balance, credits_version: update.version, has_purchased: update.hasPurchased } },
    );
    return result.modifiedCount > 0;
  }

  /** Returns false when there is no such user. */
  async markFirstGenerationDone(id: string): Promise<boolean> {
    const objectId = objectIdOf(id);
    if (!objectId) return false;
    const result = await this.users.updateOne({ _id: objectId }, { $set: { 'flags.is_first_generation': false } });
    return result.matchedCount > 0;
  }

  /** Records a dismissed tip; `hidesSiteUrlTooltip` also turns that flag off. */
  async dismissTooltip(id: string, name: string, hidesSiteUrlTooltip: boolean): Promise<'ok' | 'not_found' | 'full'> {
    const objectId = objectIdOf(id);
    if (!objectId || !(await this.users.exists({ _id: objectId }))) return 'not_found';
    if (hidesSiteUrlTooltip) {
      await this.users.updateOne({ _id: objectId }, { $set: { 'flags.showSiteUrlTooltip': false } });
    }
    if (await this.users.exists({ _id: objectId, dismissed_tooltips: name })) return 'ok';
    const added = await this.users.updateOne(
      { _id: objectId, [`dismissed_tooltips.${MAX_DISMISSED_TOOLTIPS - 1}`]: { $exists: false } },
      { $addToSet: { dismissed_tooltips: name } },
    );
    return added.matchedCount > 0 ? 'ok' : 'full';
  }

  async saveReferralSource(id: string, source: string, at: Date): Promise<boolean> {
    const result = await this.users.updateOne(
      { _id: trustedObjectId(id) },
      { $set: { referral_source: source, referral_source_at: at } },
    );
    return result.matchedCount > 0;
  }

  async hasSeenReferralForm(id: string): Promise<boolean> {
    const doc = await this.users
      .findById(trustedObjectId(id), { referral_source: 1 })
      .lean<Pick<UserDocument, 'referral_source'>>();
    return typeof doc?.referral_source === 'string';
  }

  async metadata(id: string): Promise<StoredMetadata | undefined> {
    const doc = await this.users.findById(trustedObjectId(id), { metadata: 1 }).lean<Pick<UserDocument, 'metadata'>>();
    return doc ? (doc.metadata ?? {}) : undefined;
  }

  /**
   * One conditional update of the user document: the keys are set and removed by field path, and the query lets it
   * through only if the result stays within the limits, so concurrent saves neither lose keys nor pass a limit.
   */
  async saveMetadata(id: string, save: MetadataSave): Promise<MetadataRefusal | 'saved' | 'not_found'> {
    if (save.touched.length === 0) return (await this.metadata(id)) ? 'saved' : 'not_found';
    const kept = {
      $filter: {
        input: { $objectToArray: { $ifNull: ['$metadata', {}] } },
        as: 'stored',
        cond: { $not: [{ $in: ['$$stored.k', save.touched] }] },
      },
    };
    const withinLimits = {
      $and: [
        { $lte: [{ $size: kept }, limits.maxUserMetadataKeys - save.addedKeys] },
        {
          $lte: [
            { $sum: { $map: { input: kept, as: 'stored', in: '$$stored.v.bytes' } } },
            MAX_METADATA_BYTES - save.addedBytes,
          ],
        },
      ],
    };
    const update: Record<string, Record<string, unknown>> = {};
    if (save.addedKeys > 0) {
      update.$set = Object.fromEntries(Object.entries(save.set).map(([field, value]) => [`metadata.${field}`, value]));
    }
    if (save.unset.length > 0) update.$unset = Object.fromEntries(save.unset.map((field) => [`metadata.${field}`, '']));

    // A refusal is explained from what is stored now; if that fits (another save removed keys meanwhile), try again.
    for (let attempt = 0; attempt < METADATA_SAVE_ATTEMPTS; attempt += 1) {
      const result = await this.users.updateOne({ _id: trustedObjectId(id), $expr: withinLimits }, update);
      if (result.matchedCount === 1) return 'saved';
      const stored = await this.metadata(id);
      if (!stored) return 'not_found';
      const refusal = limitRefusal(stored, save);
      if (refusal) return refusal;
    }
    throw new Error(`metadata of ${id} kept changing during ${METADATA_SAVE_ATTEMPTS} attempts to save it`);
  }

  async brandColors(id: string): Promise<string[]> {
    const doc = await this.users
      .findById(trustedObjectId(id), { brand_colors: 1 })
      .lean<Pick<UserDocument, 'brand_colors'>>();
    return doc?.brand_colors ?? [];
  }

  async countBySubject(subject: string): Promise<number> {
    return this.users.countDocuments({ subject });
  }
}

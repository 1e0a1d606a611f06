import type { ShopContextEntry } from '@productgen/contracts';
import { Schema, type Connection, type Model, type Types } from 'mongoose';
import type { JWK } from 'jose';
import type { StoredMetadata } from '../domain/metadata';

export interface UserDocument {
  _id: Types.ObjectId;
  subject: string;
  email: string;
  name: string;
  given_name: string;
  family_name: string;
  picture: string;
  credits: number;
  /** Version of the newest credits.balance_changed applied; older ones are ignored. */
  credits_version: number;
  has_purchased: boolean;
  site_url: string;
  shop_context: ShopContextEntry[];
  brand_colors: string[];
  flags: { is_first_generation: boolean; showSiteUrlTooltip: boolean };
  dismissed_tooltips: string[];
  /** Free-form settings metadata, one field per key (domain/metadata.ts: client keys never become field paths). */
  metadata?: StoredMetadata;
  referral_source: string | null;
  referral_source_at: Date | null;
  ref_code: string | null;
  /** Set once user.signed_up was accepted by the broker; a sign-in retries the publish until then. */
  signup_published: boolean;
  created_at: Date;
  updated_at: Date;
}

export interface SessionDocument {
  _id: Types.ObjectId;
  /** SHA-256 of the key; the key itself is never stored. */
  key_hash: string;
  user_id: Types.ObjectId;
  created_at: Date;
  last_seen_at: Date;
  idle_expires_at: Date;
  absolute_expires_at: Date;
}

export interface DevIdpKeyDocument {
  _id: string;
  kid: string;
  private_jwk: JWK;
  public_jwk: JWK;
  created_at: Date;
}

const shopContextEntry = new Schema({ category_id: String, label: String }, { _id: false });

const userSchema = new Schema<UserDocument>(
  {
    subject: { type: String, required: true, unique: true },
    email: { type: String, required: true },
    name: { type: String, default: '' },
    given_name: { type: String, default: '' },
    family_name: { type: String, default: '' },
    picture: { type: String, default: '' },
    credits: { type: Number, default: 0 },
    credits_version: { type: Number, default: 0 },
    has_purchased: { type: Boolean, default: false },
    site_url: { type: String, default: '' },
    shop_context: { type: [shopContextEntry], default: [] },
    brand_colors: { type: [String], default: [] },
    flags: {
      is_first_generation: { type: Boolean, default: true },
      showSiteUrlTooltip: { type: Boolean, default: true },
    },
    dismissed_tooltips: { type: [String], default: [] },
    metadata: { type: Schema.Types.Mixed, default: undefined },
    referral_source: { type: String, default: null },
    referral_source_at: { type: Date, default: null },
    ref_code: { type: String, default: null },
    signup_published: { type: Boolean, default: false },
  },
  { collection: 'users', timestamps: { createdAt: 'created_at', updatedAt: 'updated_at' }, versionKey: false },
);

const sessionSchema = new Schema<SessionDocument>(
  {
    key_hash: { type: String, required: true, unique: true },
    user_id: { type: Schema.Types.ObjectId, required: true, index: true },
    created_at: { type: Date, required: true },
    last_seen_at: { type: Date, required: true },
    idle_expires_at: { type: Date, required: true },
    // Expired sessions are removed by the server once their absolute deadline has passed.
    absolute_expires_at: { type: Date, required: true, index: { expireAfterSeconds: 0 } },
  },
  { collection: 'sessions', versionKey: false },
);

const devIdpKeySchema = new Schema<DevIdpKeyDocument>(
  {
    _id: { type: String, required: true },
    kid: { type: String, required: true },
    private_jwk: { type: Schema.Types.Mixed, required: true },
    public_jwk: { type: Schema.Types.Mixed, required: true },
    created_at: { type: Date, required: true },
  },
  { collection: 'dev_idp_keys', versionKey: false },
);

export interface AuthModels {
  users: Model<UserDocument>;
  sessions: Model<SessionDocument>;
  devIdpKeys: Model<DevIdpKeyDocument>;
}

/** The connection's model of that name, registered on first use (a second service instance reuses it). */
function modelOn<T>(connection: Connection, name: string, schema: Schema<T>): Model<T> {
  return (connection.models[name] as Model<T> | undefined) ?? connection.model<T>(name, schema);
}

/** Registers the models on the service's own connection and builds their indexes (unique keys are relied on). */
export async function createModels(connection: Connection): Promise<AuthModels> {
  const models: AuthModels = {
    users: modelOn(connection, 'User', userSchema),
    sessions: modelOn(connection, 'Session', sessionSchema),
    devIdpKeys: modelOn(connection, 'DevIdpKey', devIdpKeySchema),
  };
  await Promise.all([models.users.init(), models.sessions.init(), models.devIdpKeys.init()]);
  return models;
}

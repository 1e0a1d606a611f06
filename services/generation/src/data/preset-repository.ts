import type { CategoryId } from '@productgen/contracts';
import type { Model } from 'mongoose';
import type { StyleRecipe } from '@productgen/studio-engine';
import type { StylePresetDocument } from './schemas';

/** Preset ids are ObjectId hex; anything else cannot name one. */
const isPresetId = (id: string) => /^[0-9a-f]{24}$/i.test(id);

export interface NewStylePreset {
  userId: string;
  name: string;
  category: CategoryId;
  recipe: StyleRecipe;
  sourceGenerationUuid: string;
  sourceImageIndex: number;
}

export class PresetRepository {
  constructor(private readonly model: Model<StylePresetDocument>) {}

  async create(input: NewStylePreset): Promise<StylePresetDocument> {
    const created = await this.model.create({
      user_id: input.userId,
      name: input.name,
      category: input.category,
      recipe: input.recipe,
      source_generation_uuid: input.sourceGenerationUuid,
      source_image_index: input.sourceImageIndex,
    });
    return created.toObject();
  }

  list(userId: string, category?: CategoryId): Promise<StylePresetDocument[]> {
    return this.model
      .find(category ? { user_id: userId, category } : { user_id: userId })
      .sort({ created_at: -1 })
      .limit(500)
      .lean<StylePresetDocument[]>()
      .exec();
  }

  /** The preset when it is the user's; an unknown id, a malformed one or another user's all give null. */
  async findOwned(id: string, userId: string): Promise<StylePresetDocument | null> {
    if (!isPresetId(id)) return null;
    return this.model.findOne({ _id: id, user_id: userId }).lean<StylePresetDocument>().exec();
  }

  /** The user's presets with these ids, in the order asked; undefined entries were not found. */
  async findManyOwned(ids: readonly string[], userId: string): Promise<(StylePresetDocument | undefined)[]> {
    const valid = ids.filter((id) => isPresetId(id));
    const found = valid.length
      ? await this.model
          .find({ _id: { $in: valid }, user_id: userId })
          .lean<StylePresetDocument[]>()
          .exec()
      : [];
    const byId = new Map(found.map((preset) => [String(preset._id), preset]));
    return ids.map((id) => byId.get(id));
  }
}

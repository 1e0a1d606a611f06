import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { z } from 'zod';
import { categoryNouns, findRepoRoot, type CategoryId } from '@productgen/studio-engine/internals';
import { photoJudgements, type PhotoJudgement } from './photo-judgements';

/*
 * The real photos analysis is judged on: the test set (../shared/photos/test) and the eval set of hard cases
 * (../shared/photos/eval, tagged by what makes each hard), with what a seller would call each product and whether its
 * cut-out could be posted (photo-judgements.json, judged by eye).
 */

const manifestSchema = z.object({
  photos: z.array(
    z.object({
      file: z.string(),
      set: z.string(),
      product: z.string(),
      category: z.string(),
      hard: z.array(z.string()).optional(),
    }),
  ),
});

export interface JudgedPhoto extends PhotoJudgement {
  /** Path under ../shared/photos, e.g. "eval/fashion/cap-green-in-hand.jpg". */
  file: string;
  absolutePath: string;
  set: 'test' | 'eval';
  product: string;
  category: CategoryId;
  /** What makes it hard ("several", "transparent", …); "none" for an eval photo without a difficulty, the test set's "test". */
  hard: string[];
}

export const photosDir = () => path.resolve(findRepoRoot(), process.env.PHOTOS_DIR ?? '../shared/photos');

/** Every judged photo of the test and eval sets, in the manifests' order. */
export async function judgedPhotos(): Promise<JudgedPhoto[]> {
  const root = photosDir();
  const read = async (file: string) => manifestSchema.parse(JSON.parse(await readFile(path.join(root, file), 'utf8')));
  const test = (await read('manifest.json')).photos.filter((photo) => photo.set === 'test');
  const evaluation = (await read('eval/manifest.json')).photos.map((photo) => ({
    ...photo,
    file: `eval/${photo.file}`,
  }));
  return [...test, ...evaluation].map((photo) => {
    const judgement = photoJudgements[photo.file];
    if (!judgement) throw new Error(`photo-judgements.json has no judgement of ${photo.file}: judge it first`);
    return {
      file: photo.file,
      absolutePath: path.join(root, photo.file),
      set: photo.set === 'test' ? 'test' : 'eval',
      product: photo.product,
      category: photo.category as CategoryId,
      hard: photo.set === 'test' ? ['test'] : photo.hard?.length ? photo.hard : ['none'],
      ...judgement,
    };
  });
}

export type NameVerdict = 'right' | 'generic' | 'wrong';

/**
 * A product name against the judgement: right when a seller would use it for this product, generic when it is
 * "product" or the noun of the photo's true category (never wrong, says little), wrong otherwise: a specific name of
 * something else, or the noun of another category.
 */
export function judgeName(photo: JudgedPhoto, name: string): NameVerdict {
  const spoken = name.trim().toLowerCase();
  if (photo.names.some((candidate) => candidate.toLowerCase() === spoken)) return 'right';
  if (spoken === 'product' || spoken === categoryNouns[photo.category]) return 'generic';
  return 'wrong';
}

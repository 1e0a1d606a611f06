import type { CheckReason } from '@productgen/contracts';
import {
  categoryLabels,
  categoryNouns,
  OTHER_CATEGORY,
  PET_CLASS_RANGES,
  productNameOverrides,
  type CategoryId,
} from './categories';
import { productInFileName } from './product-words';

export interface ClassScore {
  index: number;
  label: string;
  probability: number;
}

/** Where a product's name came from. */
export type NameSource = 'file name' | 'classifier' | 'category' | 'none';

export interface ProductGuess {
  category: CategoryId;
  /** Short human product name, e.g. "coffee mug"; "product" when nothing says what it is for sure. */
  object: string;
  /**
   * The winning category's share of the evidence: its probability mass, weighed by the hints (file name, shop).
   * Without hints, the mass itself.
   */
  confidence: number;
  nameSource: NameSource;
  top: ClassScore[];
}

/** What the seller's own words say of a photo, when known: they weigh with what the classifier sees. */
export interface AnalysisHints {
  /** The photo's file name as the seller had it ("blue-dress.jpg": a batch's zip entry, the create screen's file). */
  fileName?: string;
  /** The categories of the seller's shop (auth's shop context, read from their site). */
  shopCategories?: readonly CategoryId[];
}

/**
 * How many times likelier a category is when the file name names a product of it. With the floor below its evidence
 * is at least 1, more than any category the classifier alone can give: the seller's own word decides, and where
 * the noun fits several categories ("bodysuit": fashion or baby) the photo picks among them.
 */
const FILE_NAME_WEIGHT = 50;
/** How many times likelier the shop's own categories are (a shop of dresses mostly photographs fashion). */
const SHOP_WEIGHT = 3;
/** Probability a hinted category starts from, so that a hint can lift a category the classifier gives nothing. */
const HINTED_FLOOR = 0.02;
/**
 * A classifier class names the product only when the classifier is this sure of it. ImageNet's 1000 classes hold
 * few of the things sellers photograph, and below this a specific name is as often wrong as right ("strainer" for a
 * steel watch, "scabbard" for a watch strap): precision first, a generic name then.
 */
const SPECIFIC_NAME_PROBABILITY = 0.9;
/** The category's own noun ("kitchenware") names the product when the category is this sure; else "product". */
const CATEGORY_NOUN_CONFIDENCE = 0.95;

/**
 * Below this cut-out confidence (productMatte's) the create screen says the cut-out may be wrong and opens the
 * seller's brush. On the 36 test photos (productMatte of commit aa9e939) the confidences ran from 0.85 (the vase of
 * dried flowers) and 0.87 (the teddy bear) to 0.99, median 0.98; this flags those two. Retune it with the confidence
 * whenever productMatte's measure changes (`npm run bench:segmentation` prints confidence against IoU).
 */
export const LOW_CUTOUT_CONFIDENCE = 0.92;

export function isLowCutoutConfidence(confidence: number): boolean {
  return confidence < LOW_CUTOUT_CONFIDENCE;
}

/**
 * Below this probability mass on its winning category (`ProductGuess.confidence`; 0 when filed under "other" for
 * lack of any) a batch product's category is called uncertain and it waits for the seller's check. Not calibrated
 * on a labelled set yet: half the mass means another category is about as likely as the one chosen.
 */
export const LOW_CATEGORY_CONFIDENCE = 0.5;

/** Why a batch product should wait for the seller's check; empty when analysis is sure enough of it. */
export function checkReasons(cutoutConfidence: number | undefined, categoryConfidence: number): CheckReason[] {
  const reasons: CheckReason[] = [];
  if (cutoutConfidence !== undefined && isLowCutoutConfidence(cutoutConfidence)) reasons.push('cutout');
  if (categoryConfidence < LOW_CATEGORY_CONFIDENCE) reasons.push('category');
  return reasons;
}

/** Below this much probability on any product class the photo is filed under "other". */
const MIN_CATEGORY_MASS = 0.05;

export function softmax(logits: ArrayLike<number>): Float64Array {
  let max = -Infinity;
  for (let i = 0; i < logits.length; i += 1) max = Math.max(max, logits[i] ?? -Infinity);
  const out = new Float64Array(logits.length);
  let sum = 0;
  for (let i = 0; i < logits.length; i += 1) {
    out[i] = Math.exp((logits[i] ?? 0) - max);
    sum += out[i] ?? 0;
  }
  for (let i = 0; i < out.length; i += 1) out[i] = (out[i] ?? 0) / sum;
  return out;
}

/** Category of every ImageNet class index (undefined: the class says nothing about the product). */
export function buildClassCategories(labels: readonly string[]): (CategoryId | undefined)[] {
  const byLabel = new Map<string, CategoryId>();
  for (const [category, names] of Object.entries(categoryLabels) as [CategoryId, readonly string[]][]) {
    for (const name of names) if (!byLabel.has(name)) byLabel.set(name, category);
  }
  return labels.map((label, index) => {
    if (PET_CLASS_RANGES.some(([from, to]) => index >= from && index <= to)) return 'pet';
    return byLabel.get(label);
  });
}

/** Labels named in the category table that the label file does not have (a typo would silently do nothing). */
export function unknownCategoryLabels(labels: readonly string[]): string[] {
  const known = new Set(labels);
  return Object.values(categoryLabels)
    .flat()
    .filter((name) => !known.has(name));
}

export function productName(label: string, category: CategoryId | undefined): string {
  if (category === 'pet' && !categoryLabels.pet.includes(label)) return 'pet product';
  return productNameOverrides[label] ?? label;
}

/**
 * Names the product and its category from the classifier's probabilities and the seller's hints. Each category
 * collects the mass of its classes (several related classes often share a photo's probability), weighed by the hints
 * that point to it. The name is, by precision: the product noun of the file name when its category won; the
 * winning category's strongest class when the classifier is nearly sure of it; the category's noun when the
 * category is nearly sure; else "product". Never a specific name the evidence does not hold up.
 */
export function guessProduct(
  probabilities: ArrayLike<number>,
  labels: readonly string[],
  classCategories: readonly (CategoryId | undefined)[],
  hints: AnalysisHints = {},
): ProductGuess {
  const mass = new Map<CategoryId, number>();
  const best = new Map<CategoryId, ClassScore>();
  const scores: ClassScore[] = [];
  let unfiled = 0;
  for (let index = 0; index < probabilities.length; index += 1) {
    const probability = probabilities[index] ?? 0;
    const label = labels[index] ?? `class ${index}`;
    scores.push({ index, label, probability });
    const category = classCategories[index];
    if (!category) {
      unfiled += probability;
      continue;
    }
    mass.set(category, (mass.get(category) ?? 0) + probability);
    const current = best.get(category);
    if (!current || probability > current.probability) best.set(category, { index, label, probability });
  }
  scores.sort((a, b) => b.probability - a.probability);
  const top = scores.slice(0, 5);

  const named = hints.fileName ? productInFileName(hints.fileName) : undefined;
  const weights = new Map<CategoryId, number>();
  for (const category of named?.categories ?? []) weights.set(category, FILE_NAME_WEIGHT);
  for (const category of hints.shopCategories ?? []) weights.set(category, (weights.get(category) ?? 1) * SHOP_WEIGHT);
  const evidence = new Map(mass);
  for (const [category, weight] of weights) evidence.set(category, ((mass.get(category) ?? 0) + HINTED_FLOOR) * weight);

  let winner: CategoryId | undefined;
  let winnerEvidence = 0;
  let total = unfiled;
  for (const [category, value] of evidence) {
    total += value;
    if (value > winnerEvidence) {
      winner = category;
      winnerEvidence = value;
    }
  }
  if (!winner || (!weights.has(winner) && (mass.get(winner) ?? 0) < MIN_CATEGORY_MASS)) {
    return { category: OTHER_CATEGORY, object: 'product', confidence: 0, nameSource: 'none', top };
  }
  const confidence = winnerEvidence / total;
  if (named?.categories.includes(winner)) {
    return { category: winner, object: named.name, confidence, nameSource: 'file name', top };
  }
  const strongest = best.get(winner);
  if (strongest && strongest.probability >= SPECIFIC_NAME_PROBABILITY) {
    return {
      category: winner,
      object: productName(strongest.label, winner),
      confidence,
      nameSource: 'classifier',
      top,
    };
  }
  if (confidence >= CATEGORY_NOUN_CONFIDENCE) {
    return { category: winner, object: categoryNouns[winner], confidence, nameSource: 'category', top };
  }
  return { category: winner, object: 'product', confidence, nameSource: 'none', top };
}

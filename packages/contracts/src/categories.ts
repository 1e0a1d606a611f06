/**
 * The product categories, declared once for every caller: generation classifies into them and picks looks by them,
 * auth matches a shop's home page to them, the create screen lists them (GET /image-gen/categories) and the schemas
 * accept only them. Plain data without zod, so browser code can import it without pulling in the validators.
 */
export const productCategories = [
  { id: 'fashion', name: 'Fashion' },
  { id: 'jewelry', name: 'Jewelry' },
  { id: 'beauty', name: 'Beauty' },
  { id: 'home-decor', name: 'Home Decor' },
  { id: 'kitchen', name: 'Kitchen' },
  { id: 'electronics', name: 'Electronics' },
  { id: 'food', name: 'Food' },
  { id: 'fitness', name: 'Fitness' },
  { id: 'pet', name: 'Pet' },
  { id: 'baby', name: 'Baby' },
  { id: 'bags', name: 'Bags' },
  { id: 'toys', name: 'Toys' },
  { id: 'music', name: 'Music' },
  { id: 'furniture', name: 'Furniture' },
  { id: 'other', name: 'Other' },
] as const;

export type CategoryId = (typeof productCategories)[number]['id'];

export const categoryIds: readonly CategoryId[] = productCategories.map((category) => category.id);

/** Where a product that matches no other category goes. */
export const OTHER_CATEGORY_ID = 'other' satisfies CategoryId;

/** The answer to a category that is not in the list (the create screen's correction, SPEC wording). */
export const UNKNOWN_CATEGORY_MESSAGE = 'Please choose a category from the list.';

export function isCategoryId(value: string): value is CategoryId {
  return (categoryIds as readonly string[]).includes(value);
}

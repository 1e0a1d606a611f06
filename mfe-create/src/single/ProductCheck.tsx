import type { Category, CategoryId } from '@productgen/platform-client';
import { SelectField, TextField } from '@productgen/ui-kit';
import { PRODUCT_NAME_MAX_LENGTH, type ProductEdits } from './state';
import styles from './ProductCheck.module.css';

export const LOCKED_NOTE = 'Saved with your images. Choose a new photo to change the cut-out, name or category.';
export const NAME_REQUIRED_MESSAGE = 'Please name your product.';

export interface ProductCheckProps {
  edits: ProductEdits;
  categories: readonly Category[] | null;
  /** A creation from this photo saved these: shown, no longer editable. */
  locked: boolean;
  onObject: (object: string) => void;
  onCategory: (category: CategoryId) => void;
}

/** After analysis: the product's name and category as the seller wants them (the category picks the looks). */
export function ProductCheck({ edits, categories, locked, onObject, onCategory }: ProductCheckProps) {
  const options = (categories ?? []).map((category) => ({ value: category.id, label: category.name }));
  if (!options.some((option) => option.value === edits.category)) {
    options.push({ value: edits.category, label: edits.category });
  }
  return (
    <div className={styles.check} data-testid="product-check">
      <TextField
        label="Product name"
        value={edits.object}
        maxLength={PRODUCT_NAME_MAX_LENGTH}
        disabled={locked}
        error={edits.object.trim() === '' ? NAME_REQUIRED_MESSAGE : undefined}
        onChange={(event) => onObject(event.target.value)}
      />
      <SelectField
        label="Category"
        options={options}
        value={edits.category}
        disabled={locked}
        // The select offers only the options above, each a category id.
        onChange={(value) => onCategory(value as CategoryId)}
      />
      {locked && <p className={styles.note}>{LOCKED_NOTE}</p>}
    </div>
  );
}

import {
  droppedKind,
  entryBaseName,
  imageTypeOf,
  isZipImageEntry,
  tooManyImagesMessage,
  uniqueName,
  uniqueNames,
} from '../src/batch/files';
import { batchButtonState, resizingProgress, uploadingProgress } from '../src/batch/state';

describe('what the batch drop zone accepts', () => {
  it('takes image types and the two zip types; anything else is invalid', () => {
    expect(droppedKind({ type: 'image/heic' })).toBe('image');
    expect(droppedKind({ type: 'application/zip' })).toBe('zip');
    expect(droppedKind({ type: 'application/x-zip-compressed' })).toBe('zip');
    expect(droppedKind({ type: 'application/octet-stream' })).toBe('invalid');
    expect(droppedKind({ type: '' })).toBe('invalid');
  });

  it('counts only .jpg, .jpeg, .png and .webp zip entries, never folders, __MACOSX, Thumbs.db or resource forks', () => {
    expect(['a.jpg', 'b/C.JPEG', 'c.png', 'd/e/f.webp', 'g\\h.jpg'].filter(isZipImageEntry)).toHaveLength(5);
    expect(
      [
        'photos/',
        'x.gif',
        'x.heic',
        'x.zip',
        '__MACOSX/a.jpg',
        'a/__MACOSX/b.png',
        'Thumbs.db',
        'a/THUMBS.DB',
        '._a.jpg',
        'jpg',
      ].filter(isZipImageEntry),
    ).toEqual([]);
    expect(entryBaseName('shop/deep/vase.png')).toBe('vase.png');
    expect(imageTypeOf('A.JPG')).toBe('image/jpeg');
    expect(imageTypeOf('b.webp')).toBe('image/webp');
  });
});

describe('unique names', () => {
  it('adds -1, -2 before the extension, comparing without case', () => {
    expect(uniqueName('mug.jpg', new Set())).toBe('mug.jpg');
    expect(uniqueName('Mug.jpg', new Set(['mug.jpg']))).toBe('Mug-1.jpg');
    expect(uniqueName('mug.jpg', new Set(['mug.jpg', 'mug-1.jpg']))).toBe('mug-2.jpg');
    expect(uniqueName('archive.tar.png', new Set(['archive.tar.png']))).toBe('archive.tar-1.png');
    expect(uniqueName('README', new Set(['readme']))).toBe('README-1');
    expect(uniqueName('.hidden', new Set(['.hidden']))).toBe('.hidden-1');
  });

  it('keeps a batch unique across an addition and the names already there', () => {
    expect(uniqueNames(['a.jpg', 'a-1.jpg'], ['a.jpg', 'a.jpg', 'b.jpg', 'b.jpg'])).toEqual([
      'a-2.jpg',
      'a-3.jpg',
      'b.jpg',
      'b-1.jpg',
    ]);
  });
});

describe('batch progress and button', () => {
  it('moves from 5 to 30 while resizing and from 60 up to 99 while uploading', () => {
    expect(resizingProgress(0, 12)).toBe(5);
    expect(resizingProgress(6, 12)).toBe(17.5);
    expect(resizingProgress(12, 12)).toBe(30);
    expect(uploadingProgress(0)).toBe(60);
    expect(uploadingProgress(1)).toBe(99);
    expect(uploadingProgress(2)).toBe(99);
  });

  it('is disabled while working or with no images, and short of credits below images × count', () => {
    const items = Array.from({ length: 12 }, (_, index) => ({
      id: `${index}`,
      name: `${index}.jpg`,
      file: new Blob(),
      previewUrl: '',
    }));
    expect(batchButtonState({ working: false, items: [] }, { count: 2, credits: 100 })).toBe('disabled');
    expect(batchButtonState({ working: true, items }, { count: 2, credits: 100 })).toBe('working');
    expect(batchButtonState({ working: false, items }, { count: 2, credits: 23 })).toBe('notEnoughCredits');
    expect(batchButtonState({ working: false, items }, { count: 2, credits: 24 })).toBe('ready');
    expect(tooManyImagesMessage(200, 150, 60)).toBe(
      'You can upload a maximum of 200 images. You currently have 150 and tried to add 60.',
    );
  });
});

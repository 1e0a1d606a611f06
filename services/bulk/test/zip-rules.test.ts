import {
  classifyEntry,
  folderNames,
  hasOverlappingEntries,
  isSuspiciousRatio,
  uniqueNames,
} from '../src/domain/zip-rules';

describe('which zip entries count (SPEC §5)', () => {
  test.each([
    ['photo.jpg', 'photo.jpg'],
    ['shop/shoes/Boot.JPEG', 'Boot.JPEG'],
    ['a.png', 'a.png'],
    ['b.webp', 'b.webp'],
  ])('%s is an image named %s', (path, name) => {
    expect(classifyEntry(path)).toEqual({ kind: 'image', name });
  });

  test.each([
    'folder/',
    '__MACOSX/shop/._a.jpg',
    'shop/Thumbs.db',
    '.DS_Store',
    'inner.zip',
    'notes.txt',
    'a.gif',
    'jpg',
  ])('%s is ignored', (path) => {
    expect(classifyEntry(path)).toEqual({ kind: 'ignored' });
  });
});

test('duplicate names become unique with -1, -2 before the extension, whatever their case', () => {
  expect(uniqueNames(['a.jpg', 'a.jpg', 'A.jpg', 'b.png', 'a-1.jpg'])).toEqual([
    'a.jpg',
    'a-1.jpg',
    'A-2.jpg',
    'b.png',
    'a-1-1.jpg',
  ]);
});

test('entries sharing bytes are found, whatever their order in the directory', () => {
  const apart = [
    { offset: 0, nameLength: 5, compressedSize: 100 },
    { offset: 135, nameLength: 5, compressedSize: 10 },
  ];
  expect(hasOverlappingEntries(apart)).toBe(false);
  expect(hasOverlappingEntries([apart[1]!, { offset: 0, nameLength: 5, compressedSize: 101 }])).toBe(true);
  expect(hasOverlappingEntries([apart[0]!, { ...apart[0]!, offset: 0 }])).toBe(true);
});

test('a compression ratio above the cap is a bomb; small entries are exempt', () => {
  expect(isSuspiciousRatio(10_000, 11 * 1024 * 1024, 20)).toBe(true);
  expect(isSuspiciousRatio(900_000, 1_000_000, 20)).toBe(false);
  expect(isSuspiciousRatio(10, 60_000, 20)).toBe(false);
});

test('download folders: the name without its extension, made safe and unique', () => {
  expect(folderNames(['shoe.jpg', 'shoe.png', 'a:b?.jpg', '..hidden.jpg'])).toEqual([
    'shoe',
    'shoe-1',
    'a_b_',
    '_hidden',
  ]);
});

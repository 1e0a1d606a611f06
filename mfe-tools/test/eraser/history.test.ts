import { addErased, currentVersion, moveTo, resetToOriginal, startHistory } from '../../src/tools/eraser/history';

describe('eraser version history', () => {
  const start = startHistory('photo', 1);

  it('starts with the Original', () => {
    expect(start).toEqual({ versions: [{ image: 'photo', description: 'Original', timestamp: 1 }], current: 0 });
  });

  it('adds each erase as "Magic erased" and shows it', () => {
    const twice = addErased(addErased(start, 'a', 2), 'b', 3);
    expect(twice.versions.map((version) => version.description)).toEqual(['Original', 'Magic erased', 'Magic erased']);
    expect(currentVersion(twice).image).toBe('b');
  });

  it('moves with previous and next, within the list', () => {
    const twice = addErased(addErased(start, 'a'), 'b');
    expect(currentVersion(moveTo(twice, 1)).image).toBe('a');
    expect(moveTo(twice, -1).current).toBe(0);
    expect(moveTo(twice, 9).current).toBe(2);
  });

  it('discards later versions when erasing from an earlier one', () => {
    const branched = addErased(moveTo(addErased(addErased(start, 'a'), 'b'), 1), 'c');
    expect(branched.versions.map((version) => version.image)).toEqual(['photo', 'a', 'c']);
    expect(branched.current).toBe(2);
  });

  it('resets to the original alone', () => {
    expect(resetToOriginal(addErased(start, 'a'))).toEqual(start);
  });
});

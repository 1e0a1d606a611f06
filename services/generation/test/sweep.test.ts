import {
  decideReserving,
  decideStuck,
  IMAGES_NOT_MADE_MESSAGE,
  imageOutcome,
  isSettled,
  openImages,
  outcomeOf,
  owedGiveBacks,
  type ImageProgress,
} from '../src/domain/sweep';

const open = (index: number): ImageProgress => ({ index, final_key: null, error: null, refunded: false });
const made = (index: number): ImageProgress => ({ index, final_key: `k/${index}`, error: null, refunded: false });
const owed = (index: number, error = 'broken'): ImageProgress => ({ index, final_key: null, error, refunded: false });
const givenBack = (index: number, error = 'broken'): ImageProgress => ({
  index,
  final_key: null,
  error,
  refunded: true,
});

describe('image outcomes', () => {
  test('an image is open, made, owed a give-back, or given back', () => {
    expect([open(0), made(1), owed(2), givenBack(3)].map(imageOutcome)).toEqual([
      'open',
      'finished',
      'give-back-owed',
      'given-back',
    ]);
  });

  test('owed give-backs and open images are listed by index', () => {
    const images = [made(0), owed(1), open(2), givenBack(3), owed(4)];
    expect(owedGiveBacks(images)).toEqual([1, 4]);
    expect(openImages(images)).toEqual([2]);
  });

  test('settled only when every image is made or its credit confirmed given back', () => {
    expect(isSettled([made(0), givenBack(1)])).toBe(true);
    expect(isSettled([made(0), owed(1)])).toBe(false);
    expect(isSettled([made(0), open(1)])).toBe(false);
  });
});

describe('the outcome of a settled generation', () => {
  test('every image made: completed with no error', () => {
    expect(outcomeOf([made(0), made(1)])).toEqual({ stage: 'completed', error: null });
  });

  test('some made: completed, the error counts the failed ones and says their credits came back', () => {
    expect(outcomeOf([made(0), givenBack(1, 'Too dark.'), givenBack(2, 'Too dark.')])).toEqual({
      stage: 'completed',
      error: '2 of 3 images could not be made and their credits were given back. Too dark.',
    });
  });

  test('none made: failed, and the error says the credits came back', () => {
    expect(outcomeOf([givenBack(0, 'The images could not be made in time.')])).toEqual({
      stage: 'failed',
      error: 'The images could not be made and your credits were given back. The images could not be made in time.',
    });
  });

  test('no image at all still fails with a message', () => {
    expect(outcomeOf([])).toEqual({ stage: 'failed', error: IMAGES_NOT_MADE_MESSAGE });
  });
});

describe('a creation stuck in reserving', () => {
  test('charged: the job is queued; nothing taken: failed uncharged; billing busy: ask again', () => {
    expect(decideReserving('charged')).toBe('queue');
    expect(decideReserving('none')).toBe('fail');
    expect(decideReserving('pending')).toBe('wait');
  });
});

describe('a queued or rendering generation past its deadline', () => {
  const stuck = (overrides: Partial<Parameters<typeof decideStuck>[0]> = {}) => ({
    jobPublished: true,
    requeues: 0,
    images: [made(0), open(1)],
    ...overrides,
  });

  test('a job the broker never confirmed is published first, whatever else', () => {
    expect(decideStuck(stuck({ jobPublished: false, requeues: 9 }), 2)).toBe('publish');
  });

  test('nothing left to render: settle (give back what is owed, record the outcome)', () => {
    expect(decideStuck(stuck({ images: [made(0), owed(1)] }), 2)).toBe('settle');
    expect(decideStuck(stuck({ images: [made(0), givenBack(1)], requeues: 5 }), 2)).toBe('settle');
  });

  test('images still open: re-queued while re-queues are left, then given up', () => {
    expect(decideStuck(stuck({ requeues: 0 }), 2)).toBe('requeue');
    expect(decideStuck(stuck({ requeues: 1 }), 2)).toBe('requeue');
    expect(decideStuck(stuck({ requeues: 2 }), 2)).toBe('give-up');
    expect(decideStuck(stuck({ requeues: 0 }), 0)).toBe('give-up');
  });
});

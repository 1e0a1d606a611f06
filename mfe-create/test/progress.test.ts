import {
  CREATIVE_PHRASES,
  MAX_POLLS,
  generationSettled,
  pickCreativePhrase,
  pollsExhausted,
  progressAfterPoll,
  progressText,
} from '../src/single/progress';
import { fixesRunning } from '../src/shared/images';

describe('progressAfterPoll', () => {
  it.each([
    [0, 18],
    [5, 18],
    [10, 18],
    [14, 18],
    [15, 19],
    [18, 22],
    [22, 26],
    [90, 94],
    [95, 99],
    [96, 99],
    [98, 99],
    [99, 99],
  ])('from %i goes to %i while not done (+4, floor 18, cap 99)', (from, to) => {
    expect(progressAfterPoll(from, false)).toBe(to);
  });

  it('never leaves 18..99 while not done, for every starting value', () => {
    for (let progress = 0; progress <= 99; progress += 1) {
      const next = progressAfterPoll(progress, false);
      expect(next).toBe(Math.min(99, Math.max(18, progress + 4)));
      expect(next).toBeGreaterThanOrEqual(18);
      expect(next).toBeLessThanOrEqual(99);
    }
  });

  it('jumps to 100 once done, whatever the current value', () => {
    for (const progress of [0, 10, 18, 57, 99]) expect(progressAfterPoll(progress, true)).toBe(100);
  });

  it('walks a whole generation from the accepted 10% to the 99% cap', () => {
    const seen: number[] = [];
    let progress = 10;
    for (let poll = 1; poll <= MAX_POLLS; poll += 1) {
      progress = progressAfterPoll(progress, false);
      seen.push(progress);
    }
    expect(seen.slice(0, 4)).toEqual([18, 22, 26, 30]);
    expect(seen[20]).toBe(98);
    expect(seen[21]).toBe(99);
    expect(seen.at(-1)).toBe(99);
  });
});

describe('progressText', () => {
  it('reads "Uploading photo..." under 10%', () => {
    for (let progress = 0; progress < 10; progress += 1) {
      expect(progressText(progress, 'Styling your scene')).toBe('Uploading photo...');
    }
  });

  it('reads "Analyzing product..." from 10% to under 20%', () => {
    for (let progress = 10; progress < 20; progress += 1) {
      expect(progressText(progress, 'Styling your scene')).toBe('Analyzing product...');
    }
  });

  it('reads the creative phrase with the percentage from 20% to 99%', () => {
    for (let progress = 20; progress < 100; progress += 1) {
      expect(progressText(progress, 'Styling your scene')).toBe(`Styling your scene... ${progress}%`);
    }
  });

  it('reads "Finalizing..." at 100%', () => {
    expect(progressText(100, 'Styling your scene')).toBe('Finalizing...');
  });
});

describe('pickCreativePhrase', () => {
  it('maps the whole random range onto the phrase list', () => {
    expect(pickCreativePhrase(0)).toBe(CREATIVE_PHRASES[0]);
    expect(pickCreativePhrase(0.999999)).toBe(CREATIVE_PHRASES.at(-1));
    expect(pickCreativePhrase(1)).toBe(CREATIVE_PHRASES.at(-1));
    const picked = new Set(CREATIVE_PHRASES.map((_, index) => pickCreativePhrase(index / CREATIVE_PHRASES.length)));
    expect(picked.size).toBe(CREATIVE_PHRASES.length);
  });
});

describe('generationSettled', () => {
  const done = { id: 'a', input_url: '/a-in.jpg', output_url: '/a.jpg', metadata: { fixes_done: [true, true] } };
  const fixing = { id: 'b', input_url: '/b-in.jpg', output_url: '/b.jpg', metadata: { fixes_done: [true, false] } };

  it.each([
    ['completed', [done], true],
    ['failed', [done], true],
    ['failed', [], true],
    ['completed', [done, fixing], false],
    ['processing', [done], false],
    ['pending', [], false],
  ] as const)('status %s with %j images settled = %s', (status, images, settled) => {
    expect(generationSettled({ status, images: [...images] })).toBe(settled);
  });

  it('treats an image without fixes_done as finished', () => {
    expect(fixesRunning({})).toBe(false);
    expect(fixesRunning({ metadata: { fixes_done: [] } })).toBe(false);
    expect(fixesRunning({ metadata: { fixes_done: [false] } })).toBe(true);
  });
});

describe('pollsExhausted', () => {
  it('allows 60 polls and no more', () => {
    expect(pollsExhausted(59)).toBe(false);
    expect(pollsExhausted(60)).toBe(true);
  });
});

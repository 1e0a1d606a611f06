import type { GeneratedImage, GenerationStatus, ImageAnalysis } from '@productgen/platform-client';
import { MAX_POLLS, TIMED_OUT_MESSAGE } from '../src/single/progress';
import {
  FETCH_FAILED_MESSAGE,
  NO_IMAGE_MESSAGE,
  START_FAILED_MESSAGE,
  createButtonState,
  imageCount,
  initialSingleState,
  isKnownCategory,
  keepSelection,
  singleReducer,
  startRefusal,
  type SingleAction,
  type SingleState,
} from '../src/single/state';
import { defaultImageCount } from '../src/shared/choices';
import type { CreateLimits } from '../src/shared/limits';

/** SPEC §5's limits, as GET /configlist serves them. */
const LIMITS: CreateLimits = { maxImagesPerGeneration: 5, maxPresetsPerGeneration: 5, maxBatchImages: 200 };
/** Smaller limits a deployment could serve: the reducers follow them. */
const TIGHT: CreateLimits = { maxImagesPerGeneration: 3, maxPresetsPerGeneration: 2, maxBatchImages: 10 };

const ANALYSIS: ImageAnalysis = { category: 'kitchen', object: 'coffee mug', generation_uuid: 'gen-analysis' };

function image(id: string, fixesDone = true): GeneratedImage {
  return {
    id,
    input_url: `/img/${id}-in.jpg`,
    output_url: `/img/${id}.jpg`,
    metadata: { fixes_done: [true, fixesDone] },
  };
}

function status(overrides: Partial<GenerationStatus> = {}): GenerationStatus {
  return { analyzed: true, images: [], gen_error: null, status: 'processing', has_watermark: false, ...overrides };
}

function run(actions: SingleAction[], from: SingleState = initialSingleState): SingleState {
  return actions.reduce(singleReducer, from);
}

const working = run([
  { type: 'photoChosen', photo: 'data:image/jpeg;base64,AA', token: 1 },
  { type: 'analysed', token: 1, analysis: ANALYSIS },
  { type: 'startRequested', count: 3, random: 0 },
  { type: 'startAccepted', generationUuid: 'gen-1' },
]);

describe('singleReducer', () => {
  it('analyses the chosen photo and ignores the answer for an earlier photo', () => {
    const chosen = run([
      { type: 'photoChosen', photo: 'p1', token: 1 },
      { type: 'photoChosen', photo: 'p2', token: 2 },
    ]);
    expect(chosen).toMatchObject({ photo: 'p2', analysing: true, analysis: null });
    expect(singleReducer(chosen, { type: 'analysed', token: 1, analysis: ANALYSIS })).toBe(chosen);
    expect(singleReducer(chosen, { type: 'analysed', token: 2, analysis: ANALYSIS })).toMatchObject({
      analysing: false,
      analysis: ANALYSIS,
    });
  });

  it('empties product and category when analysis fails', () => {
    const failed = run([
      { type: 'photoChosen', photo: 'p1', token: 1 },
      { type: 'analysed', token: 1, analysis: ANALYSIS },
      { type: 'photoChosen', photo: 'p2', token: 2 },
      { type: 'analysisFailed', token: 2, error: 'bad photo' },
    ]);
    expect(failed).toMatchObject({ analysing: false, analysis: null, error: 'bad photo' });
  });

  it('allows at most 5 presets and toggles them off again', () => {
    let state = initialSingleState;
    for (const id of ['a', 'b', 'c', 'd', 'e', 'f']) {
      state = singleReducer(state, { type: 'presetToggled', id, limits: LIMITS });
    }
    expect(state.presetIds).toEqual(['a', 'b', 'c', 'd', 'e']);
    state = singleReducer(state, { type: 'presetToggled', id: 'c', limits: LIMITS });
    expect(state.presetIds).toEqual(['a', 'b', 'd', 'e']);
    state = singleReducer(state, { type: 'presetsAvailable', ids: ['a', 'e'] });
    expect(state.presetIds).toEqual(['a', 'e']);
  });

  it('clamps the chosen count to 1..5', () => {
    expect(singleReducer(initialSingleState, { type: 'countChosen', count: 9, limits: LIMITS }).countChoice).toBe(5);
    expect(singleReducer(initialSingleState, { type: 'countChosen', count: 0, limits: LIMITS }).countChoice).toBe(1);
  });

  it('follows the limits /configlist serves', () => {
    expect(singleReducer(initialSingleState, { type: 'countChosen', count: 5, limits: TIGHT }).countChoice).toBe(3);
    let state = initialSingleState;
    for (const id of ['a', 'b', 'c']) state = singleReducer(state, { type: 'presetToggled', id, limits: TIGHT });
    expect(state.presetIds).toEqual(['a', 'b']);
    expect(defaultImageCount(12, TIGHT)).toBe(3);
  });

  it('starts at 0%, is at 10% once accepted and then follows the poll arithmetic', () => {
    expect(run([{ type: 'startRequested', count: 2, random: 0 }]).progress).toBe(0);
    expect(working).toMatchObject({ working: true, progress: 10, requested: 3, generationUuid: 'gen-1' });
    const polled = run(
      [
        { type: 'polled', status: status(), random: 0 },
        { type: 'polled', status: status(), random: 0 },
      ],
      working,
    );
    expect(polled).toMatchObject({ progress: 22, polls: 2, working: true });
  });

  it('auto-selects the first image and keeps the selection while images refresh', () => {
    let state = singleReducer(working, { type: 'polled', status: status({ images: [image('a', false)] }), random: 0 });
    expect(state.selectedId).toBe('a');
    state = singleReducer(state, {
      type: 'polled',
      status: status({ images: [image('a', false), image('b', false)] }),
      random: 0,
    });
    state = singleReducer(state, { type: 'imageSelected', id: 'b' });
    state = singleReducer(state, {
      type: 'polled',
      status: status({ images: [image('a'), image('b'), image('c')] }),
      random: 0,
    });
    expect(state.selectedId).toBe('b');
    expect(keepSelection([image('x')], 'b')).toBe('x');
    expect(keepSelection([], 'b')).toBeNull();
    expect(singleReducer(state, { type: 'imageSelected', id: 'nope' }).selectedId).toBe('b');
  });

  it('ends at 100% when completed and every fix is done, not before', () => {
    const fixing = singleReducer(working, {
      type: 'polled',
      status: status({ status: 'completed', images: [image('a'), image('b', false)] }),
      random: 0,
    });
    expect(fixing).toMatchObject({ working: true, finished: false });
    expect(fixing.progress).toBeLessThan(100);
    const done = singleReducer(fixing, {
      type: 'polled',
      status: status({ status: 'completed', images: [image('a'), image('b')], has_watermark: true }),
      random: 0,
    });
    expect(done).toMatchObject({ working: false, finished: true, progress: 100, hasWatermark: true, error: null });
  });

  it('shows gen_error, and "An error occurred" for a failure that says nothing', () => {
    const withMessage = singleReducer(working, {
      type: 'polled',
      status: status({ status: 'failed', gen_error: 'The studio could not render this product.' }),
      random: 0,
    });
    expect(withMessage).toMatchObject({ working: false, error: 'The studio could not render this product.' });
    const silent = singleReducer(working, { type: 'polled', status: status({ status: 'failed' }), random: 0 });
    expect(silent.error).toBe(START_FAILED_MESSAGE);
  });

  it('times out after the 60th unfinished poll', () => {
    let state = working;
    for (let poll = 1; poll < MAX_POLLS; poll += 1) {
      state = singleReducer(state, { type: 'polled', status: status(), random: 0 });
    }
    expect(state).toMatchObject({ working: true, polls: MAX_POLLS - 1, error: null });
    state = singleReducer(state, { type: 'polled', status: status(), random: 0 });
    expect(state).toMatchObject({ working: false, polls: MAX_POLLS, error: TIMED_OUT_MESSAGE });
    expect(singleReducer(state, { type: 'polled', status: status(), random: 0 })).toBe(state);
  });

  it('uses the SPEC fallbacks for failures without a message', () => {
    expect(singleReducer(working, { type: 'pollFailed', error: null })).toMatchObject({
      working: false,
      error: FETCH_FAILED_MESSAGE,
    });
    expect(singleReducer(working, { type: 'startFailed', error: null })).toMatchObject({
      working: false,
      error: START_FAILED_MESSAGE,
    });
    expect(singleReducer(working, { type: 'startFailed', error: 'Not enough credits' }).error).toBe(
      'Not enough credits',
    );
  });

  it('refuses a start with neither photo nor analysis', () => {
    expect(startRefusal(initialSingleState)).toBe(NO_IMAGE_MESSAGE);
    expect(startRefusal({ photo: 'p', analysis: null })).toBeNull();
  });

  it('a new photo clears results and messages but keeps the chosen count', () => {
    const done = run([
      { type: 'countChosen', count: 2, limits: LIMITS },
      { type: 'photoChosen', photo: 'p1', token: 1 },
      { type: 'analysed', token: 1, analysis: ANALYSIS },
      { type: 'startRequested', count: 2, random: 0 },
      { type: 'startAccepted', generationUuid: 'g' },
      { type: 'polled', status: status({ status: 'completed', images: [image('a')] }), random: 0 },
    ]);
    const next = singleReducer(done, { type: 'photoChosen', photo: 'p2', token: 2 });
    expect(next).toMatchObject({ images: [], generationUuid: null, countChoice: 2, finished: false, photo: 'p2' });
    expect(singleReducer(working, { type: 'photoChosen', photo: 'p3', token: 9 })).toBe(working);
  });
});

describe('image count', () => {
  it('defaults to the credits clamped to 1..5', () => {
    expect(defaultImageCount(0, LIMITS)).toBe(1);
    expect(defaultImageCount(3, LIMITS)).toBe(3);
    expect(defaultImageCount(12, LIMITS)).toBe(5);
  });

  it('is 5 on a first generation, one per preset when presets are chosen, else the slider', () => {
    const count = (inputs: Omit<Parameters<typeof imageCount>[0], 'limits'>) =>
      imageCount({ ...inputs, limits: LIMITS });
    expect(count({ firstGeneration: true, credits: 2, countChoice: 1, presetCount: 2 })).toBe(5);
    expect(count({ firstGeneration: false, credits: 12, countChoice: 4, presetCount: 2 })).toBe(2);
    expect(count({ firstGeneration: false, credits: 12, countChoice: 4, presetCount: 0 })).toBe(4);
    expect(count({ firstGeneration: false, credits: 2, countChoice: null, presetCount: 0 })).toBe(2);
  });
});

describe('createButtonState', () => {
  const ready = { working: false, photo: 'p', analysing: false, analysis: ANALYSIS };
  const enough = { count: 3, credits: 10, categoryKnown: true };

  it('is ready with an analysed photo of a known category and enough credits', () => {
    expect(createButtonState(ready, enough)).toBe('ready');
  });

  it.each([
    ['no photo', { ...ready, photo: null }],
    ['analysing', { ...ready, analysing: true }],
    ['failed analysis', { ...ready, analysis: null }],
  ])('is disabled with %s', (_, state) => {
    expect(createButtonState(state, enough)).toBe('disabled');
  });

  it('is disabled with an unknown category and working while creating', () => {
    expect(createButtonState(ready, { ...enough, categoryKnown: false })).toBe('disabled');
    expect(createButtonState({ ...ready, working: true }, enough)).toBe('working');
  });

  it('is out of credits when the balance is below the count', () => {
    expect(createButtonState(ready, { ...enough, credits: 2 })).toBe('outOfCredits');
    expect(createButtonState(ready, { ...enough, credits: 3 })).toBe('ready');
  });
});

describe('isKnownCategory', () => {
  it('needs a non-empty id listed among the categories (once they are known)', () => {
    expect(isKnownCategory('kitchen', ['kitchen', 'fashion'])).toBe(true);
    expect(isKnownCategory('kitchen', null)).toBe(true);
    expect(isKnownCategory('garden', ['kitchen'])).toBe(false);
    expect(isKnownCategory('', null)).toBe(false);
    expect(isKnownCategory('unknown', null)).toBe(false);
    expect(isKnownCategory(undefined, null)).toBe(false);
  });
});
